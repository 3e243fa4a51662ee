// GET /error_codes and /error_codes/{code}: EMQX 5.8.9's error codes with their descriptions. Public,
// as in 5.8 (`security => []`).
import type { FastifyInstance } from 'fastify'
import { ERROR_CODES, errorCodeList, type ErrorCode } from '../../../contract/error-codes.ts'
import { checkPathEnum } from '../../http/path-enum.ts'

const names = ERROR_CODES.map(([code]) => code)

export async function errorCodesRoutes(app: FastifyInstance): Promise<void> {
  app.get('/error_codes', { config: { public: true } }, async (): Promise<ErrorCode[]> => errorCodeList())

  app.get<{ Params: { code: string } }>('/error_codes/:code', { config: { public: true } }, async (request): Promise<ErrorCode> => {
    const code = checkPathEnum('code', request.params.code, names)
    return errorCodeList().find((entry) => entry.code === code)!
  })
}
