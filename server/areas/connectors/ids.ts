// The `{id}` of a path read as EMQX reads it: an id that is not `type:name` with a good name is a 404.
import { integrationMessages as msg, parseResourceId } from '../../../contract/connectors.ts'
import { ApiError } from '../../../contract/api-error.ts'

export type IdKind = 'connector' | 'connectorPut' | 'bridge' | 'source'

const wording: Record<IdKind, (reason: string) => string> = {
  connector: msg.invalidConnectorId,
  connectorPut: msg.invalidConnectorIdPut,
  bridge: msg.invalidBridgeId,
  source: msg.invalidSourceId,
}

export function pathId(id: string, kind: IdKind): { type: string; name: string } {
  const parsed = parseResourceId(id)
  if ('error' in parsed) throw new ApiError(404, 'NOT_FOUND', wording[kind](parsed.error))
  return parsed
}

/** `true`/`false` in `/enable/{enable}`; anything else fails the path's validation. */
export function pathBoolean(text: string): boolean {
  if (text === 'true') return true
  if (text === 'false') return false
  throw new ApiError(400, 'BAD_REQUEST', `enable: ${text} is not a boolean`)
}
