// A path parameter that EMQX 5.8 declares as an enum (`hoconsc:enum`) and a value outside it: minirest
// refuses it before the handler with 400 BAD_REQUEST and hocon's validation error as JSON
// (emqx_dashboard_swagger:check_parameter, hocon_schema_builtin:convert, emqx_hocon:format_error).
import { ApiError } from '../../contract/api-error.ts'

export function checkPathEnum<T extends string>(path: string, value: string, symbols: readonly T[]): T {
  const found = symbols.find((symbol) => symbol === value)
  if (found !== undefined) return found
  // hocon turns an integer-looking value into an integer and then finds it is no symbol; other text stays
  // text unless it names an atom the node already has (which this server cannot know of).
  const integer = /^[+-]?\d+$/.test(value)
  const error = {
    kind: 'validation_error',
    path,
    reason: integer ? 'not_a_enum_symbol' : 'unable_to_convert_to_enum_symbol',
    value: integer ? Number(value) : value,
  }
  throw new ApiError(400, 'BAD_REQUEST', JSON.stringify(error))
}
