// Logging (EMQX `log`): the file handlers and the console handler, each with its level, format and
// time, and the level of every handler at once.
import * as v from 'valibot'
import { HANDLER_NAME, LOG_FORMATTERS, LOG_LEVELS, PAYLOAD_ENCODINGS, TIME_OFFSET, TIMESTAMP_FORMATS } from '../contract/log.ts'
import type { LogSettings } from '../src/api/log.ts'
import { givenArgs, keepsCurrent, sizeArg } from './args.ts'
import { defineCommand, type Completer } from './define.ts'

const levelArg = v.pipe(v.picklist(LOG_LEVELS, 'err.oneOf'), v.title('form.field.logLevel'), v.description('form.hint.logLevel'))

/** The settings the console and a file handler share, each kept when left out. */
const handlerArgs = {
  enable: keepsCurrent(v.pipe(v.boolean('err.boolean'), v.title('form.field.enable'))),
  level: keepsCurrent(levelArg),
  formatter: keepsCurrent(v.pipe(v.picklist(LOG_FORMATTERS, 'err.oneOf'), v.title('form.field.logFormatter'))),
  timestamp_format: keepsCurrent(v.pipe(v.picklist(TIMESTAMP_FORMATS, 'err.oneOf'), v.title('form.field.logTimestampFormat'))),
  time_offset: keepsCurrent(
    v.pipe(v.string(), v.trim(), v.title('form.field.logTimeOffset'), v.description('form.hint.logTimeOffset'), v.regex(TIME_OFFSET, 'err.logTimeOffset')),
  ),
  payload_encode: keepsCurrent(v.pipe(v.picklist(PAYLOAD_ENCODINGS, 'err.oneOf'), v.title('form.field.logPayloadEncode'))),
}

/** The file handlers' names, for completion. */
const handlerNames: Completer = async (api, query, signal) =>
  Object.keys((await api.log.get(signal)).file ?? {}).filter((name) => name.startsWith(query))

export const updateLogFile = defineCommand({
  id: 'log.update',
  title: 'cmd.log.update',
  group: 'cmdGroup.log',
  changes: ['log'],
  args: v.object({
    name: v.optional(
      v.pipe(v.string(), v.trim(), v.title('form.field.logHandlerName'), v.description('form.hint.logHandlerName'), v.regex(HANDLER_NAME, 'err.logHandlerName')),
      'default',
    ),
    ...handlerArgs,
    path: keepsCurrent(v.pipe(v.string(), v.trim(), v.title('form.field.logPath'), v.description('form.hint.logPath'), v.minLength(1, 'err.required'))),
    rotation_size: keepsCurrent(sizeArg('form.field.logRotationSize', { description: 'form.hint.logRotationSize', literals: ['infinity'] })),
    rotation_count: keepsCurrent(
      v.pipe(v.number('err.number'), v.title('form.field.logRotationCount'), v.integer('err.integer'), v.minValue(1), v.maxValue(128), v.metadata({ unit: 'form.unit.files' })),
    ),
  }),
  positional: ['name'],
  complete: { name: handlerNames },
  aliases: ['log', 'log file', 'logging', '日志', '日志文件'],
  run: (ctx, { name, ...settings }) => ctx.api.log.update({ file: { [name]: givenArgs(settings) } }),
})

export const updateLogConsole = defineCommand({
  id: 'log.console.update',
  title: 'cmd.log.consoleUpdate',
  group: 'cmdGroup.log',
  changes: ['log'],
  args: v.object(handlerArgs),
  aliases: ['console log', 'stdout', '控制台日志'],
  run: (ctx, settings) => ctx.api.log.update({ console: givenArgs(settings) }),
})

/** The change that sets `level` on every enabled handler. */
export function levelChange(settings: LogSettings, level: string) {
  const file = Object.fromEntries(Object.entries(settings.file ?? {}).filter(([, handler]) => handler.enable).map(([name]) => [name, { level }]))
  return { ...(settings.console?.enable ? { console: { level } } : {}), file }
}

export const setLogLevel = defineCommand({
  id: 'log.level',
  title: 'cmd.log.level',
  group: 'cmdGroup.log',
  changes: ['log'],
  args: v.object({ level: levelArg }),
  positional: ['level'],
  aliases: ['log level', 'debug logging', '日志级别'],
  describe: (args) => ({ key: 'cmd.log.levelDescribe', values: { level: args.level ?? '' } }),
  run: async (ctx, { level }) => ctx.api.log.update(levelChange(await ctx.api.log.get(), level)),
})

export const logCommands = [updateLogFile, updateLogConsole, setLogLevel]
