// GET /schemas/{name}: the JSON schema documents EMQX's dashboard draws its forms from, public as in
// 5.8.9. `connectors`, `actions` (with the sources) and `bridges` (v1) are built from the data-integration
// field catalogue for the types this server offers; `hotconf` (every config root's schema) is not built
// here, so it is answered as 5.8 answers a name it does not know.
import type { FastifyInstance } from 'fastify'
import { SCHEMA_NAMES, type SchemaDocument } from '../../../contract/schemas.ts'
import { checkPathEnum } from '../../http/path-enum.ts'
import type { AreaDeps } from '../area.ts'
import { connectorsArea } from '../connectors/index.ts'
import { schemaDocument } from './schema-json.ts'

const BUILT = SCHEMA_NAMES.filter((name) => name !== 'hotconf')

export async function schemasRoutes(app: FastifyInstance, deps: AreaDeps<undefined>): Promise<void> {
  const integration = deps.use(connectorsArea)
  app.get<{ Params: { name: string } }>('/schemas/:name', { config: { public: true } }, async (request): Promise<SchemaDocument> => {
    const name = checkPathEnum('name', request.params.name, BUILT)
    return schemaDocument(name, { connector: integration.types('connectors'), action: integration.types('actions'), source: integration.types('sources') })
  })
}
