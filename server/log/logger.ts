// The server's one logger (a node has one, as in EMQX): pino with EMQX's levels, whose records go
// to the handlers in force (the console and the named files of `log`, each with its level and
// formatter) and to the sinks other parts attach (an OpenTelemetry exporter). With no handler and
// no sink nothing is logged at all, which is where a process starts (tests stay quiet).
import { dirname, resolve } from 'node:path'
import { pino, stdSerializers, type Logger } from 'pino'
import type { LogConfig, LogLevel } from '../../contract/log.ts'
import { parseSize } from '../../contract/units.ts'
import { formatRecord, type FormatOptions, type LogRecord } from './format.ts'
import { LEVEL_VALUES, levelName, threshold, type RecordLevel } from './levels.ts'
import { RotatingFile } from './rotating-file.ts'

export type { LogRecord } from './format.ts'
export type ServerLogger = Logger<RecordLevel, true>

/** Where records of at least some level go. */
interface Output {
  threshold: number
  write(record: LogRecord): void
  close?(): void
}

let handlers: Output[] = []
let directory: string | undefined
const sinks = new Set<Output>()

/** Microseconds since the epoch, as EMQX's logger stamps records. */
function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000)
}

/** Turns pino's JSON line back into a record and hands it to every output whose level it reaches. */
const dispatch = {
  write(line: string): void {
    const { time, level, msg, ...fields } = JSON.parse(line) as { time: number; level: number; msg?: string } & Record<string, unknown>
    const record: LogRecord = { time, level: levelName(level), msg: msg ?? '', fields }
    for (const output of [...handlers, ...sinks]) {
      if (level < output.threshold) continue
      try {
        output.write(record)
      } catch (error) {
        process.stderr.write(`log output failed: ${String(error)}\n`)
      }
    }
  },
}

/** The logger the server's code logs through: `log.warning({ clientid }, 'flapping_detected')`. */
export const log: ServerLogger = pino<RecordLevel, true>(
  {
    customLevels: LEVEL_VALUES,
    useOnlyCustomLevels: true,
    level: 'warning',
    base: undefined,
    timestamp: () => `,"time":${nowMicros()}`,
    serializers: { err: stdSerializers.err },
  },
  dispatch,
)

/** pino's level: the least severe any output takes (EMQX's primary level), silent when none listens. */
function updatePrimaryLevel(): void {
  const outputs = [...handlers, ...sinks]
  if (outputs.length === 0) {
    log.level = 'silent'
    return
  }
  const lowest = Math.min(...outputs.map((output) => output.threshold))
  log.level = levelName(Math.max(lowest, LEVEL_VALUES.debug))
}
updatePrimaryLevel()

/** A receiver of log records (an exporter); it gets every record at `level` or above. */
export type LogSink = (record: LogRecord) => void

/** Attaches a sink; the returned function detaches it. */
export function addLogSink(sink: LogSink, level: LogLevel = 'warning'): () => void {
  const output: Output = { threshold: threshold(level), write: sink }
  sinks.add(output)
  updatePrimaryLevel()
  return () => {
    sinks.delete(output)
    updatePrimaryLevel()
  }
}

/** A configured file path on disk: `${EMQX_LOG_DIR}` is the log directory, a relative path is the working directory's. */
export function resolveLogPath(path: string, logDir: string): string {
  return resolve(path.replaceAll('${EMQX_LOG_DIR}', logDir))
}

function formatOptions(handler: FormatOptions): FormatOptions {
  const { formatter, timestamp_format, time_offset, chars_limit, single_line, max_depth, payload_encode } = handler
  return { formatter, timestamp_format, time_offset, chars_limit, single_line, max_depth, payload_encode }
}

/** The outputs `config` asks for; files are opened here, so a path that cannot be written throws before anything changes. */
function outputsOf(config: LogConfig, logDir: string): { outputs: Output[]; directory: string | undefined } {
  const outputs: Output[] = []
  let firstFile: string | undefined
  try {
    if (config.console.enable) {
      const options = formatOptions(config.console)
      outputs.push({ threshold: threshold(config.console.level), write: (record) => process.stdout.write(formatRecord(record, options)) })
    }
    for (const handler of Object.values(config.file)) {
      if (!handler.enable) continue
      const options = formatOptions(handler)
      const size = handler.rotation_size === 'infinity' ? Infinity : (parseSize(handler.rotation_size) ?? Infinity)
      const file = new RotatingFile(resolveLogPath(handler.path, logDir), size, handler.rotation_count)
      firstFile ??= file.path
      outputs.push({ threshold: threshold(handler.level), write: (record) => file.write(formatRecord(record, options)), close: () => file.close() })
    }
  } catch (error) {
    for (const output of outputs) output.close?.()
    throw error
  }
  return { outputs, directory: firstFile === undefined ? undefined : dirname(firstFile) }
}

/** Which configuration is in force; a server stopping resets the logger only if it is still its own. */
let current: object | undefined

/** Puts the handlers of `config` in force (replacing the ones before) and returns its token for `resetLogging`. */
export function configureLogging(config: LogConfig, logDir: string): object {
  const next = outputsOf(config, logDir)
  for (const output of handlers) output.close?.()
  handlers = next.outputs
  directory = next.directory
  current = {}
  updatePrimaryLevel()
  return current
}

/** Closes the handlers of the configuration `token` put in force, when nobody has replaced it since. */
export function resetLogging(token: object): void {
  if (current !== token) return
  for (const output of handlers) output.close?.()
  handlers = []
  directory = undefined
  current = undefined
  updatePrimaryLevel()
}

/** The directory of the first file being written, as /nodes' `log_path` shows it; undefined when no file is. */
export function logDirectory(): string | undefined {
  return directory
}
