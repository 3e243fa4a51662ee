// The dashboard's helper endpoints (5.8's "schemas/error_codes" area): GET /error_codes and the form
// schemas of GET /schemas/{name}.
import { defineServerArea } from '../area.ts'
import { errorCodesRoutes } from './error-codes-routes.ts'
import { schemasRoutes } from './schemas-routes.ts'

export const schemasArea = defineServerArea({
  name: 'schemas',
  routes: [errorCodesRoutes, schemasRoutes],
})
