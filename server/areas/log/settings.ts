// The `log` settings document: EMQX 5.8's handlers checked whole (a file that cannot be written to
// is refused before anything changes), kept under `feature.log`, put in force on the process logger.
import * as v from 'valibot'
import { logConfigSchema, normalizeLogPatch, type LogConfig, type LogHandlerDefaults } from '../../../contract/log.ts'
import { mergeSettings, type Settings, type SettingsStore } from '../../http/settings-route.ts'
import { checkWritable, resolveLogPath } from '../../log/index.ts'
import type { LogFeature } from './feature.ts'

/** EMQX_DEFAULT_LOG_HANDLER: `console`, `file` (or unset) or `both` turn those handlers on by default. */
export function handlerDefaults(defaultHandler: string): LogHandlerDefaults {
  return { console: ['console', 'both'].includes(defaultHandler), file: ['file', 'both', ''].includes(defaultHandler) }
}

/** The first enabled file handler that cannot be written to, as the refusal's text. */
function unwritable(config: LogConfig, logDir: string): string | undefined {
  for (const [name, handler] of Object.entries(config.file)) {
    if (!handler.enable) continue
    try {
      checkWritable(resolveLogPath(handler.path, logDir))
    } catch (error) {
      return `file.${name}.path: ${(error as Error).message}`
    }
  }
  return undefined
}

export function logSchema(defaults: LogHandlerDefaults, logDir: string) {
  return v.pipe(
    logConfigSchema(defaults),
    v.check((config) => unwritable(config, logDir) === undefined, (issue) => unwritable(issue.input as LogConfig, logDir) ?? ''),
  )
}

export type LogSchema = ReturnType<typeof logSchema>

export function logSettings(log: LogFeature, store: SettingsStore): Settings<LogSchema> {
  return {
    schema: log.schema,
    current: () => log.config,
    store,
    key: 'log',
    apply: (config) => log.apply(config),
    merge: (current, body) => mergeSettings(current, normalizeLogPatch(body)),
  }
}
