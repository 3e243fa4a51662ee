// The MQTT General and Session screens' commands: every setting of the global zone's `mqtt` root
// an argument of its own (left empty, it keeps the setting in force), so the screens' forms are
// these commands' forms. They read `/configs/global_zone` and write it back whole, as EMQX 5.8's
// dashboard does (5.8 routes no `/configs/mqtt`), so settings this console does not know survive.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { durationArg, givenArgs, keepsCurrent, rowsArg, rowsText, sizeArg, type FieldKind, type RowColumn } from './args.ts'
import { generalSettings, sessionSettings, type SettingKind as Kind } from './mqtt.ts'
import type { GlobalZone } from '../src/api/mqttConfig.ts'
import { ATTR_NAME, variformProblem } from '../contract/variform.ts'

type Kinds = Record<string, Kind>

/** The bounds EMQX 5.8's schema gives a number setting (emqx_schema.erl); the least is 0 when not listed. */
const BOUNDS: Record<string, [number, number]> = {
  max_clientid_len: [23, 65535],
  max_topic_levels: [1, 65535],
  max_topic_alias: [0, 65535],
  server_keepalive: [1, 65535],
  keepalive_multiplier: [1, 100],
  max_subscriptions: [1, 0x7fffffff],
  max_inflight: [1, 65535],
  max_awaiting_rel: [1, 0x7fffffff],
  max_mqueue_len: [0, 0x7fffffff],
}

/** `client_attrs_init` rows as EMQX's dashboard shows them: the expression, then the attribute it sets. */
const ATTR_COLUMNS: readonly [RowColumn, RowColumn] = [
  { key: 'expression', label: 'mqttSettings.field.attrExpression' },
  { key: 'set_as_attr', label: 'mqttSettings.field.attrName' },
]

/** The server's checks of client_attrs_init, made on the form first: 5.8's compile error, the name rule. */
const attrRowsCheck = v.rawCheck<Record<string, string>[]>(({ dataset, addIssue }) => {
  if (!dataset.typed) return
  dataset.value.forEach((row, i) => {
    const problem = variformProblem(row.expression ?? '')
    if (problem !== undefined) addIssue({ message: 'err.attrExpression', received: String(i + 1), expected: problem })
    else if (!ATTR_NAME.test(row.set_as_attr ?? '')) addIssue({ message: 'err.attrName', received: String(i + 1) })
  })
})

const label = (key: string) => `mqttSettings.field.${key}`
const hint = (key: string) => `mqttSettings.hint.${key}`

function numberArg(key: string, integer: boolean) {
  const [min, max] = BOUNDS[key] ?? [0, Number.MAX_SAFE_INTEGER]
  return integer
    ? v.pipe(v.number('err.number'), v.integer('err.integer'), v.minValue(min), v.maxValue(max))
    : v.pipe(v.number('err.number'), v.minValue(min), v.maxValue(max))
}

/** One setting as a form field of the kind its value is written in. */
function settingArg(key: string, kind: Kind): v.GenericSchema {
  if (typeof kind !== 'string') return v.pipe(v.picklist(kind as readonly (string | number)[], 'err.oneOf'), v.title(label(key)), v.description(hint(key)))
  const [base, literal] = kind.split('|')
  switch (base) {
    case 'bool':
      return v.pipe(v.boolean('err.boolean'), v.title(label(key)), v.description(hint(key)))
    case 'duration':
      return durationArg(label(key), { description: hint(key), literals: literal ? [literal] : [] })
    case 'size':
      return sizeArg(label(key), { description: hint(key) })
    case 'string':
      return v.pipe(v.string(), v.title(label(key)), v.description(hint(key)))
    case 'attrs':
      return v.pipe(rowsArg(label(key), ATTR_COLUMNS, { description: hint(key) }), attrRowsCheck)
    case 'json':
      // A JSON object, or the literal as a JSON string ("disabled").
      return v.pipe(
        v.union([v.literal(literal), v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(255)))], 'err.priorities'),
        v.title(label(key)),
        v.description(hint(key)),
      )
    default: {
      const number = numberArg(key, base === 'int')
      if (!literal) return v.pipe(number, v.title(label(key)), v.description(hint(key)))
      // A number typed as text, or the word: the form keeps it a text box.
      return v.pipe(
        v.union([v.literal(literal), number], `err.${literal}OrNumber`),
        v.title(label(key)),
        v.description(hint(key)),
        v.metadata({ field: 'number' as FieldKind, literals: [literal] }),
      )
    }
  }
}

function settingsArgs<K extends Kinds>(kinds: K) {
  return v.object(
    Object.fromEntries(Object.entries(kinds).map(([key, kind]) => [key, keepsCurrent(settingArg(key, kind))])) as {
      [P in keyof K]: ReturnType<typeof keepsCurrent<v.GenericSchema>>
    },
  )
}

/** The settings as the form's text values: what `settingsArgs` reads back. */
export function settingsValues(kinds: Kinds, mqtt: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(kinds).map(([key, kind]) => {
      const value = mqtt?.[key]
      if (value === undefined || value === null) return [key, '']
      if (kind === 'attrs') return [key, Array.isArray(value) ? rowsText(value as Record<string, unknown>[], ATTR_COLUMNS) : '']
      if (kind === 'json|disabled' || typeof value === 'object') return [key, JSON.stringify(value)]
      return [key, String(value)]
    }),
  )
}

/** A command whose arguments are these settings of the global zone's `mqtt` root. */
function zoneCommand<K extends Kinds>(id: string, kinds: K, aliases: string[]) {
  return defineCommand({
    id,
    title: `cmd.${id}`,
    group: 'cmdGroup.mqtt',
    changes: ['mqttConfig'],
    args: settingsArgs(kinds),
    aliases,
    run: async (ctx, args): Promise<GlobalZone> => {
      const zone = await ctx.api.mqttConfig.globalZone()
      return ctx.api.mqttConfig.updateGlobalZone({ mqtt: { ...zone.mqtt, ...givenArgs(args) } })
    },
  })
}

export const updateGeneral = zoneCommand('mqttGeneral.update', generalSettings, ['mqtt general', 'MQTT 通用'])
export const updateSession = zoneCommand('mqttSession.update', sessionSettings, ['session settings', '会话设置'])

export const mqttSettingsCommands = [updateGeneral, updateSession]
