// The built-in functions of EMQX 5.8's rule SQL (emqx_rule_funcs), for completion and the reference
// beside the editor: name, the argument counts EMQX accepts, the parameters as the signature shows
// them (optional ones in brackets) and the group. Each one's line of help is the i18n key `ruleFn.<name>`.

export const RULE_FUNCTION_GROUPS = [
  'context',
  'math',
  'bits',
  'conversion',
  'typeCheck',
  'string',
  'map',
  'array',
  'hash',
  'compression',
  'codec',
  'time',
  'random',
  'state',
  'system',
] as const
export type RuleFunctionGroup = (typeof RULE_FUNCTION_GROUPS)[number]

export interface RuleFunctionDoc {
  name: string
  group: RuleFunctionGroup
  arities: readonly number[]
  /** Also takes any count from this one up (sprintf). */
  variadicFrom?: number
  /** The parameters as written in the signature: `str, start[, length]`. */
  params: string
}

/** `substr(str, start[, length])`. */
export function signatureOf(fn: Pick<RuleFunctionDoc, 'name' | 'params'>): string {
  return `${fn.name}(${fn.params})`
}

/** The i18n key of a function's one line of help. */
export function helpKeyOf(name: string): string {
  return `ruleFn.${name}`
}

// name, arities ('2,3', or '1+' for any count from 1), parameters.
type Row = readonly [string, string, string]

const TABLE: Record<RuleFunctionGroup, readonly Row[]> = {
  context: [
    ['msgid', '0', ''],
    ['qos', '0', ''],
    ['flags', '0', ''],
    ['flag', '1', 'name'],
    ['topic', '0,1', '[n]'],
    ['clientid', '0', ''],
    ['clientip', '0', ''],
    ['peerhost', '0', ''],
    ['username', '0', ''],
    ['payload', '0,1', '[path]'],
    ['contains_topic', '2,3', 'topic_filters, topic[, qos]'],
    ['contains_topic_match', '2,3', 'topic_filters, topic[, qos]'],
    ['null', '0', ''],
    ['coalesce', '1,2', 'a, b | list'],
    ['coalesce_ne', '1,2', 'a, b | list'],
  ],
  math: [
    ['abs', '1', 'x'],
    ['acos', '1', 'x'],
    ['acosh', '1', 'x'],
    ['asin', '1', 'x'],
    ['asinh', '1', 'x'],
    ['atan', '1', 'x'],
    ['atanh', '1', 'x'],
    ['ceil', '1', 'x'],
    ['cos', '1', 'x'],
    ['cosh', '1', 'x'],
    ['exp', '1', 'x'],
    ['floor', '1', 'x'],
    ['fmod', '2', 'x, y'],
    ['log', '1', 'x'],
    ['log10', '1', 'x'],
    ['log2', '1', 'x'],
    ['power', '2', 'x, y'],
    ['round', '1', 'x'],
    ['sin', '1', 'x'],
    ['sinh', '1', 'x'],
    ['sqrt', '1', 'x'],
    ['tan', '1', 'x'],
    ['tanh', '1', 'x'],
    ['eq', '2', 'a, b'],
  ],
  bits: [
    ['bitnot', '1', 'x'],
    ['bitand', '2', 'x, y'],
    ['bitor', '2', 'x, y'],
    ['bitxor', '2', 'x, y'],
    ['bitsl', '2', 'x, n'],
    ['bitsr', '2', 'x, n'],
    ['bitsize', '1', 'bits'],
    ['bytesize', '1', 'bin'],
    ['subbits', '2,3,4,5,6', 'bits, [start, ]len[, type[, signedness[, endianness]]]'],
  ],
  conversion: [
    ['str', '1', 'x'],
    ['str_utf8', '1', 'x'],
    ['str_utf16_le', '1', 'x'],
    ['bool', '1', 'x'],
    ['int', '1', 'x'],
    ['float', '1,2', 'x[, decimals]'],
    ['float2str', '2', 'x, precision'],
    ['map', '1', 'x'],
    ['bin2hexstr', '1,2', 'bin[, prefix]'],
    ['hexstr2bin', '1,2', 'str[, prefix]'],
    ['sqlserver_bin2hexstr', '1', 'bin'],
  ],
  typeCheck: [
    ['is_null', '1', 'x'],
    ['is_null_var', '1', 'x'],
    ['is_not_null', '1', 'x'],
    ['is_not_null_var', '1', 'x'],
    ['is_str', '1', 'x'],
    ['is_bool', '1', 'x'],
    ['is_int', '1', 'x'],
    ['is_float', '1', 'x'],
    ['is_num', '1', 'x'],
    ['is_map', '1', 'x'],
    ['is_array', '1', 'x'],
    ['is_empty', '1', 'x'],
  ],
  string: [
    ['lower', '1', 'str'],
    ['upper', '1', 'str'],
    ['trim', '1', 'str'],
    ['ltrim', '1', 'str'],
    ['rtrim', '1,2', 'str[, chars]'],
    ['rm_prefix', '2', 'str, prefix'],
    ['reverse', '1', 'str'],
    ['strlen', '1', 'str'],
    ['substr', '2,3', 'str, start[, length]'],
    ['split', '2,3', 'str, separator[, "notrim"]'],
    ['tokens', '2,3', 'str, separators[, "nocrlf"]'],
    ['concat', '1,2', 'a, b | list'],
    ['sprintf_s', '2', 'format, args'],
    ['sprintf', '1+', 'format, ...'],
    ['pad', '2,3,4', 'str, length[, "trailing"|"leading"|"both"[, char]]'],
    ['replace', '3,4', 'str, search, replacement[, "all"|"leading"|"trailing"]'],
    ['regex_match', '2', 'str, regex'],
    ['regex_replace', '3', 'str, regex, replacement'],
    ['regex_extract', '2', 'str, regex'],
    ['ascii', '1', 'char'],
    ['find', '2,3', 'str, search[, "leading"|"trailing"]'],
    ['join_to_string', '1,2', '[separator, ]list'],
    ['join_to_sql_values_string', '1', 'list'],
    ['map_to_redis_hset_args', '1', 'map'],
    ['unescape', '1', 'str'],
    ['jq', '2,3', 'program, json[, timeout_ms]'],
  ],
  map: [
    ['map_new', '0', ''],
    ['map_get', '2,3', 'key, map[, default]'],
    ['map_put', '3', 'key, value, map'],
    ['map_keys', '1', 'map'],
    ['map_values', '1', 'map'],
    ['map_to_entries', '1', 'map'],
    ['map_size', '1', 'map'],
    ['mget', '2,3', 'key, map[, default]'],
    ['mput', '3', 'key, value, map'],
  ],
  array: [
    ['nth', '2', 'n, list'],
    ['length', '1', 'list'],
    ['sublist', '2,3', '[start, ]length, list'],
    ['first', '1', 'list'],
    ['last', '1', 'list'],
    ['contains', '2', 'item, list'],
  ],
  hash: [
    ['md5', '1', 'data'],
    ['sha', '1', 'data'],
    ['sha256', '1', 'data'],
    ['hash', '2', 'algorithm, data'],
  ],
  compression: [
    ['gzip', '1', 'data'],
    ['gunzip', '1', 'data'],
    ['zip', '1', 'data'],
    ['unzip', '1', 'data'],
    ['zip_compress', '1', 'data'],
    ['zip_uncompress', '1', 'data'],
  ],
  codec: [
    ['base64_encode', '1', 'data'],
    ['base64_decode', '1', 'str'],
    ['json_encode', '1', 'x'],
    ['json_decode', '1', 'str'],
    ['term_encode', '1', 'x'],
    ['term_decode', '1', 'bin'],
  ],
  time: [
    ['now_rfc3339', '0,1', '[unit]'],
    ['unix_ts_to_rfc3339', '1,2', 'ts[, unit]'],
    ['rfc3339_to_unix_ts', '1,2', 'str[, unit]'],
    ['now_timestamp', '0,1', '[unit]'],
    ['format_date', '3,4', 'unit, offset, format[, ts]'],
    ['date_to_unix_ts', '3,4', 'unit, [offset, ]format, str'],
    ['timezone_to_second', '1', 'offset'],
    ['timezone_to_offset_seconds', '1', 'offset'],
    ['mongo_date', '0,1,2', '[ts[, unit]]'],
  ],
  random: [
    ['random', '0', ''],
    ['uuid_v4', '0', ''],
    ['uuid_v4_no_hyphen', '0', ''],
  ],
  state: [
    ['proc_dict_get', '1', 'key'],
    ['proc_dict_put', '2', 'key, value'],
    ['proc_dict_del', '1', 'key'],
    ['kv_store_get', '1,2', 'key[, default]'],
    ['kv_store_put', '2', 'key, value'],
    ['kv_store_del', '1', 'key'],
  ],
  system: [['getenv', '1', 'name']],
}

function toDoc(group: RuleFunctionGroup, [name, arities, params]: Row): RuleFunctionDoc {
  if (arities.endsWith('+')) return { name, group, arities: [], variadicFrom: Number(arities.slice(0, -1)), params }
  return { name, group, arities: arities.split(',').map(Number), params }
}

/** Every function, grouped in the order of RULE_FUNCTION_GROUPS. */
export const RULE_FUNCTIONS: readonly RuleFunctionDoc[] = RULE_FUNCTION_GROUPS.flatMap((group) => TABLE[group].map((row) => toDoc(group, row)))

export const RULE_FUNCTIONS_BY_NAME: ReadonlyMap<string, RuleFunctionDoc> = new Map(RULE_FUNCTIONS.map((fn) => [fn.name, fn]))
