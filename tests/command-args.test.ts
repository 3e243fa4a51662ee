import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { defineCommand } from '../commands/define.ts'
import { describeArgs, formatArgs, validateArgs } from '../commands/args.ts'
import { getCommand } from '../commands/registry.ts'

const sample = defineCommand({
  id: 'sample.run',
  title: 'cmd.sample',
  group: 'cmdGroup.sample',
  args: v.object({
    topic: v.pipe(v.string(), v.minLength(1, 'err.required'), v.title('form.field.topic')),
    qos: v.optional(v.picklist([0, 1, 2]), 0),
    priority: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(255))),
    retain: v.optional(v.boolean(), false),
    mode: v.union([v.literal('a'), v.literal('b')]),
    headers: v.optional(v.record(v.string(), v.string())),
    note: v.optional(v.string(), ''),
  }),
  positional: ['topic'],
  run: async () => undefined,
})

describe('describing arguments', () => {
  it('derives one field per schema entry with kind, requiredness, bounds, options and defaults', () => {
    const fields = describeArgs(sample)
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['topic', 'string', true],
      ['qos', 'enum', false],
      ['priority', 'number', false],
      ['retain', 'boolean', false],
      ['mode', 'enum', true],
      ['headers', 'keyValues', false],
      ['note', 'string', false],
    ])
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]))
    expect(byName.topic).toMatchObject({ label: 'form.field.topic', min: 1, position: 0 })
    expect(byName.qos).toMatchObject({ options: [0, 1, 2], default: 0, label: 'qos' })
    expect(byName.priority).toMatchObject({ min: 1, max: 255, integer: true })
    expect(byName.priority.default).toBeUndefined()
    expect(byName.retain.default).toBe(false)
    expect(byName.mode.options).toEqual(['a', 'b'])
    expect(byName.note.position).toBeUndefined()
  })

  it('describes the settings commands as pick lists and a boolean', () => {
    expect(describeArgs(getCommand('settings.language')!)[0]).toMatchObject({
      name: 'lang',
      kind: 'enum',
      options: ['en', 'zh'],
      required: true,
      label: 'form.field.lang',
    })
    expect(describeArgs(getCommand('settings.syncOsTheme')!)[0]).toMatchObject({ name: 'enabled', kind: 'boolean' })
    expect(describeArgs(getCommand('go.clients')!)).toEqual([])
  })
})

describe('validating arguments', () => {
  it('coerces strings from forms and scripts to numbers, booleans, enum values and JSON', () => {
    const result = validateArgs(sample, {
      topic: 't/1',
      qos: '2',
      priority: ' 10 ',
      retain: 'yes',
      mode: 'b',
      headers: '{"x":"y"}',
    })
    expect(result).toEqual({
      ok: true,
      value: { topic: 't/1', qos: 2, priority: 10, retain: true, mode: 'b', headers: { x: 'y' }, note: '' },
    })
  })

  it('treats empty optional values as not given so defaults apply', () => {
    const result = validateArgs(sample, { topic: 'a', qos: '', priority: '', retain: '', mode: 'a', note: '' })
    expect(result).toEqual({ ok: true, value: { topic: 'a', qos: 0, retain: false, mode: 'a', note: '' } })
  })

  it('passes already typed values through unchanged', () => {
    const result = validateArgs(sample, { topic: 'a', qos: 1, retain: true, mode: 'a' })
    expect(result.ok && result.value).toMatchObject({ qos: 1, retain: true })
  })

  it('reports one translated error key per field in schema order', () => {
    const result = validateArgs(sample, { topic: '', qos: '3', priority: '300', retain: 'maybe', headers: '{oops' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toEqual([
      { field: 'topic', key: 'err.required', values: { requirement: 1 } },
      { field: 'qos', key: 'err.oneOf', values: { options: '0, 1, 2' } },
      { field: 'priority', key: 'err.range', values: { min: 1, max: 255 } },
      { field: 'retain', key: 'err.boolean' },
      { field: 'mode', key: 'err.select' },
      { field: 'headers', key: 'err.json' },
    ])
  })

  it('says which numbers are not numbers or not whole', () => {
    const notNumber = validateArgs(sample, { topic: 'a', mode: 'a', priority: 'ten' })
    const fraction = validateArgs(sample, { topic: 'a', mode: 'a', priority: '1.5' })
    const tooSmall = validateArgs(sample, { topic: 'a', mode: 'a', priority: '0' })
    expect(!notNumber.ok && notNumber.errors).toEqual([{ field: 'priority', key: 'err.number' }])
    expect(!fraction.ok && fraction.errors).toEqual([{ field: 'priority', key: 'err.integer' }])
    expect(!tooSmall.ok && tooSmall.errors).toEqual([{ field: 'priority', key: 'err.range', values: { min: 1, max: 255 } }])
  })

  it('rejects argument names the command does not have', () => {
    const result = validateArgs(sample, { topic: 'a', mode: 'a', topik: 'b' })
    expect(!result.ok && result.errors).toEqual([{ field: 'topik', key: 'err.unknownArg', values: { name: 'topik' } }])
  })

  it('validates the kick command the way a script would call it', () => {
    const kick = getCommand('client.kick')!
    expect(validateArgs(kick, { clientid: 'abc' })).toEqual({ ok: true, value: { clientid: 'abc' } })
    const missing = validateArgs(kick, {})
    expect(!missing.ok && missing.errors.map((e) => [e.field, e.key])).toEqual([['clientid', 'err.required']])
    const language = validateArgs(getCommand('settings.language')!, { lang: 'fr' })
    expect(!language.ok && language.errors.map((e) => [e.field, e.key])).toEqual([['lang', 'err.oneOf']])
  })
})

describe('formatting arguments', () => {
  it('writes key=value pairs and quotes values with spaces, quotes or nothing so scripts can read them back', () => {
    expect(formatArgs({ clientid: 'abc', topic: 'a b', empty: '', qos: 1, skip: undefined, obj: { a: 1 } })).toBe(
      'clientid=abc topic="a b" empty="" qos=1 obj="{\\"a\\":1}"',
    )
    expect(formatArgs({ clientid: 'a\x1b[2Jb' })).toBe('clientid="a\\u001b[2Jb"')
  })
})
