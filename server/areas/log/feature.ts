// The log handlers in force on the process logger, and their undoing when the server stops.
import * as v from 'valibot'
import { logConfigSchema, type LogConfig } from '../../../contract/log.ts'
import { configureLogging, resetLogging } from '../../log/index.ts'
import type { Feature } from '../area.ts'
import { handlerDefaults, logSchema, type LogSchema } from './settings.ts'

export class LogFeature implements Feature {
  readonly schema: LogSchema
  readonly logDir: string
  /** EMQX's defaults for this server (which handlers are on follows EMQX_DEFAULT_LOG_HANDLER). */
  readonly defaults: LogConfig
  config: LogConfig
  private token: object | undefined

  constructor(defaultHandler: string, logDir: string) {
    this.logDir = logDir
    const defaults = handlerDefaults(defaultHandler)
    this.schema = logSchema(defaults, logDir)
    this.defaults = v.parse(logConfigSchema(defaults), {})
    this.config = this.defaults
  }

  /** Puts `config` in force (its files are opened first: one that cannot be is an error and nothing changes). */
  apply(config: LogConfig): void {
    this.token = configureLogging(config, this.logDir)
    this.config = config
  }

  /** The defaults in force, unless a file cannot be opened: then the server starts with what can be, and says so. */
  applyDefaults(): void {
    try {
      this.apply(this.config)
    } catch (error) {
      process.stderr.write(`log: ${(error as Error).message}; logging to files is off\n`)
      const files = Object.fromEntries(Object.entries(this.config.file).map(([name, file]) => [name, { ...file, enable: false }]))
      this.apply({ ...this.config, file: files })
    }
  }

  stop(): void {
    if (this.token) resetLogging(this.token)
  }
}
