// The log handlers (EMQX `/configs/log`), written once for the server and the browser: the levels,
// the handler settings the server checks and answers with EMQX 5.8's defaults, the parts the
// embedded server keeps at EMQX's defaults, and the looser read of any EMQX 5.
import * as v from 'valibot'
import { keptAt, keptObject } from './mqtt-configs.ts'
import { parseSize } from './units.ts'

/** EMQX's levels, most verbose first; `all` lets everything through, like `debug`. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency', 'all'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export const LOG_FORMATTERS = ['text', 'json'] as const
export const TIMESTAMP_FORMATS = ['auto', 'epoch', 'rfc3339'] as const
export const PAYLOAD_ENCODINGS = ['text', 'hex', 'hidden'] as const

/** EMQX's default file path: its log directory, then emqx.log. */
export const DEFAULT_LOG_PATH = '${EMQX_LOG_DIR}/emqx.log'

/** `system`, `utc`, `+hh:mm` or `-hh:mm` (EMQX's own pattern, minutes up to 69 included). */
export const TIME_OFFSET = /^([-+][0-1][0-9]:[0-6][0-9]|system|utc)$/
const TIME_OFFSET_MESSAGE = 'Invalid time offset, should be of format: +[hh]:[mm], i.e. +08:00 or -02:00'

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max))

/** The settings shared by the console and file handlers; `enable` defaults by handler (EMQX_DEFAULT_LOG_HANDLER). */
function handlerEntries(enable: boolean) {
  return {
    enable: v.optional(v.boolean(), enable),
    level: v.optional(v.picklist(LOG_LEVELS, `level must be one of ${LOG_LEVELS.join(', ')}`), 'warning'),
    formatter: v.optional(v.picklist(LOG_FORMATTERS, 'formatter must be text or json'), 'text'),
    timestamp_format: v.optional(v.picklist(TIMESTAMP_FORMATS, 'timestamp_format must be auto, epoch or rfc3339'), 'auto'),
    time_offset: v.optional(v.pipe(v.string(), v.regex(TIME_OFFSET, TIME_OFFSET_MESSAGE)), 'system'),
    chars_limit: v.optional(v.union([v.literal('unlimited'), int(100)], 'chars_limit must be unlimited or an integer of at least 100'), 'unlimited'),
    single_line: v.optional(v.boolean(), true),
    max_depth: v.optional(v.union([v.literal('unlimited'), int(0)], 'max_depth must be unlimited or a non-negative integer'), 100),
    payload_encode: v.optional(v.picklist(PAYLOAD_ENCODINGS, 'payload_encode must be text, hex or hidden'), 'text'),
    // Erlang logger machinery the embedded server has no counterpart for: kept at EMQX's defaults.
    with_mfa: keptAt(false),
    supervisor_reports: keptAt('error'),
    sync_mode_qlen: keptAt(100),
    drop_mode_qlen: keptAt(3000),
    flush_qlen: keptAt(8000),
    overload_kill: keptObject({ enable: true, mem_size: '30MB', qlen: 20000, restart_after: '5s' }),
    burst_limit: keptObject({ enable: true, max_count: 10000, window_time: '1s' }),
  }
}

const rotationSize = v.union(
  [v.literal('infinity'), v.pipe(v.string(), v.check((text) => (parseSize(text) ?? 0) > 0))],
  'rotation_size must be infinity or a size such as 512KB or 50MB',
)

function fileHandlerEntries(enable: boolean) {
  return {
    path: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'path must not be empty')), DEFAULT_LOG_PATH),
    rotation_count: v.optional(v.pipe(v.number('rotation_count must be an integer from 1 to 128'), v.integer(), v.minValue(1), v.maxValue(128)), 10),
    rotation_size: v.optional(rotationSize, '50MB'),
    ...handlerEntries(enable),
  }
}

/** The keys of a file handler, and their older names, that say a `file` object is one handler rather than a map of them. */
const FILE_HANDLER_KEYS = [...Object.keys(fileHandlerEntries(true)), 'file', 'to', 'rotation', 'max_size', 'format']

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** EMQX's `ensure_file_handlers`: a handler's own keys at the top of `file` belong to the handler named `default`. */
export function ensureFileHandlers(file: unknown): unknown {
  if (!isObject(file)) return file
  const unnamed = Object.fromEntries(Object.entries(file).filter(([key]) => FILE_HANDLER_KEYS.includes(key)))
  if (Object.keys(unnamed).length === 0) return file
  const named = Object.fromEntries(Object.entries(file).filter(([key]) => !FILE_HANDLER_KEYS.includes(key)))
  const existing = isObject(named.default) ? named.default : {}
  return { ...named, default: { ...unnamed, ...existing } }
}

/** EMQX's older names of a handler's keys, read as today's. */
function renameAliases(handler: unknown): unknown {
  if (!isObject(handler)) return handler
  const { format, file, to, rotation, max_size, ...rest } = handler
  const renamed: Record<string, unknown> = { ...rest }
  if (format !== undefined && rest.formatter === undefined) renamed.formatter = format
  if ((file ?? to) !== undefined && rest.path === undefined) renamed.path = file ?? to
  if (rotation !== undefined && rest.rotation_count === undefined) renamed.rotation_count = isObject(rotation) ? (rotation.count ?? 10) : rotation
  if (max_size !== undefined && rest.rotation_size === undefined) renamed.rotation_size = max_size
  return renamed
}

/**
 * A change to `log` written with today's names (the un-named file handler as `default`, older key
 * names renamed), so it merges key by key into the handlers in force.
 */
export function normalizeLogPatch(patch: Record<string, unknown>): Record<string, unknown> {
  const normal: Record<string, unknown> = { ...patch }
  if (patch.console !== undefined) normal.console = renameAliases(patch.console)
  const file = ensureFileHandlers(patch.file)
  if (isObject(file)) normal.file = Object.fromEntries(Object.entries(file).map(([name, handler]) => [name, renameAliases(handler)]))
  return normal
}

/** A handler name: how EMQX names it in `log.file.<name>`. */
export const HANDLER_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/

/** Which handlers are on when nobody said: EMQX's `EMQX_DEFAULT_LOG_HANDLER` (console, file, both; anything else is neither). */
export interface LogHandlerDefaults {
  console: boolean
  file: boolean
}

/** The whole `log` document as this server checks a PUT (after merging it into the settings in force) and answers it. */
export function logConfigSchema(defaults: LogHandlerDefaults) {
  const fileHandler = v.pipe(v.unknown(), v.transform(renameAliases), v.strictObject(fileHandlerEntries(defaults.file)))
  return v.object({
    console: v.optional(v.pipe(v.unknown(), v.transform(renameAliases), v.strictObject(handlerEntries(defaults.console))), {}),
    file: v.optional(
      v.pipe(
        v.unknown(),
        v.transform(ensureFileHandlers),
        v.record(v.pipe(v.string(), v.regex(HANDLER_NAME, 'a file handler name starts with a letter, then letters, digits, _ or -')), fileHandler),
      ),
      { default: {} },
    ),
    // EMQX drops repeats of some messages within this window; the embedded server has no such list.
    throttling: keptObject({ time_window: '1m' }),
  })
}

export type LogConfig = v.InferOutput<ReturnType<typeof logConfigSchema>>
export type ConsoleHandlerConfig = LogConfig['console']
export type FileHandlerConfig = LogConfig['file'][string]

/** A handler as the browser reads it from any EMQX 5: what the screen shows, the rest kept as is. */
const HandlerReadSchema = v.looseObject({
  enable: v.optional(v.boolean()),
  level: v.optional(v.string()),
  formatter: v.optional(v.string()),
  timestamp_format: v.optional(v.string()),
  time_offset: v.optional(v.string()),
  payload_encode: v.optional(v.string()),
})
const FileHandlerReadSchema = v.looseObject({
  ...HandlerReadSchema.entries,
  path: v.optional(v.string()),
  rotation_count: v.optional(v.number()),
  rotation_size: v.optional(v.union([v.string(), v.number()])),
})

export const LogSettingsSchema = v.looseObject({
  console: v.optional(HandlerReadSchema),
  file: v.optional(v.record(v.string(), FileHandlerReadSchema)),
})
export type LogSettings = v.InferOutput<typeof LogSettingsSchema>
export type LogHandlerSettings = v.InferOutput<typeof FileHandlerReadSchema>

/** The error of this area: status and EMQX code. */
export const logErrors = {
  /** 400: a level, formatter or offset EMQX does not know, a path the server cannot write to; nothing changes. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
} as const
