// Schema -> form field kinds and the parsing of what operators type into them (SPEC 9 notations).
import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { defineCommand } from '../commands/define.ts'
import {
  dateArg,
  describeArgs,
  durationArg,
  keyValuesArg,
  parseDateInput,
  parseDuration,
  parseKeyValues,
  parseSize,
  resolveDateInput,
  sizeArg,
  splitDuration,
  splitSize,
  validateArgs,
} from '../commands/args.ts'
import { getCommand } from '../commands/registry.ts'

const form = defineCommand({
  id: 'sample.form',
  title: 'cmd.sample',
  group: 'cmdGroup.sample',
  args: v.object({
    name: v.pipe(v.string(), v.minLength(1, 'err.required')),
    count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10))),
    level: v.picklist(['low', 'high']),
    on: v.optional(v.boolean(), false),
    window: v.optional(durationArg('form.field.windowTime')),
    interval: v.optional(durationArg('form.field.sysMsgInterval', { literals: ['disabled'] })),
    limit: v.optional(sizeArg('form.field.maxPayloadSize')),
    at: v.optional(dateArg('form.field.until')),
    body: v.optional(v.object({ a: v.number() })),
    props: v.optional(keyValuesArg('form.field.userProperties')),
  }),
  run: async () => undefined,
})

const NOW = Date.parse('2030-01-01T00:00:00Z')

describe('field kinds from the schema', () => {
  it('gives each argument the control its type needs', () => {
    expect(describeArgs(form).map((f) => [f.name, f.kind])).toEqual([
      ['name', 'string'],
      ['count', 'number'],
      ['level', 'enum'],
      ['on', 'boolean'],
      ['window', 'duration'],
      ['interval', 'duration'],
      ['limit', 'size'],
      ['at', 'date'],
      ['body', 'json'],
      ['props', 'keyValues'],
    ])
    const byName = Object.fromEntries(describeArgs(form).map((f) => [f.name, f]))
    expect(byName.count).toMatchObject({ min: 1, max: 10, integer: true, required: false })
    expect(byName.interval.literals).toEqual(['disabled'])
    expect(byName.window).toMatchObject({ label: 'form.field.windowTime', description: 'form.hint.duration' })
  })

  it('marks the registered commands that take durations, sizes, times and user properties', () => {
    const kind = (id: string, name: string) => describeArgs(getCommand(id)!).find((f) => f.name === name)?.kind
    expect(kind('flapping.update', 'window_time')).toBe('duration')
    expect(kind('retainer.update', 'max_payload_size')).toBe('size')
    expect(kind('banned.create', 'until')).toBe('date')
    expect(kind('sysTopics.update', 'sys_msg_interval')).toBe('duration')
    expect(kind('message.publish', 'user_properties')).toBe('keyValues')
  })
})

describe('durations and sizes', () => {
  it('reads durations in day, hour, minute, second and millisecond', () => {
    expect(parseDuration('30s')).toBe(30_000)
    expect(parseDuration('1h30m')).toBe(5_400_000)
    expect(parseDuration('1h 30m')).toBe(5_400_000)
    expect(parseDuration('2d')).toBe(172_800_000)
    expect(parseDuration('500ms')).toBe(500)
    expect(parseDuration('5')).toBeUndefined()
    expect(parseDuration('5 minutes')).toBeUndefined()
    expect(splitDuration('90m')).toEqual({ amount: '90', unit: 'm' })
    expect(splitDuration('1h30m')).toEqual({ amount: '90', unit: 'm' })
    expect(splitDuration('nope')).toBeUndefined()
  })

  it('reads sizes in KB, MB and GB with 1024 steps', () => {
    expect(parseSize('1KB')).toBe(1024)
    expect(parseSize('1 mb')).toBe(1024 ** 2)
    expect(parseSize('2GB')).toBe(2 * 1024 ** 3)
    expect(parseSize('1TB')).toBeUndefined()
    expect(splitSize('512kb')).toEqual({ amount: '512', unit: 'KB' })
  })

  it('normalizes what was typed and accepts the declared literals', () => {
    const ok = validateArgs(form, { name: 'a', level: 'low', window: ' 1H 30M ', limit: '1 mb', interval: 'disabled' })
    expect(ok.ok && ok.value).toMatchObject({ window: '1h30m', limit: '1MB', interval: 'disabled' })
    const bad = validateArgs(form, { name: 'a', level: 'low', window: '5 minutes', limit: '1TB', interval: 'never' })
    expect(!bad.ok && bad.errors.map((e) => [e.field, e.key])).toEqual([
      ['window', 'err.duration'],
      ['interval', 'err.duration'],
      ['limit', 'err.size'],
    ])
  })
})

describe('dates', () => {
  it("accepts 'now', relative times and RFC 3339", () => {
    expect(parseDateInput('now', NOW)).toBe(NOW)
    expect(parseDateInput('+1h', NOW)).toBe(NOW + 3_600_000)
    expect(parseDateInput('-30m', NOW)).toBe(NOW - 1_800_000)
    expect(parseDateInput('+2d', NOW)).toBe(NOW + 2 * 86_400_000)
    expect(parseDateInput('2030-01-02T03:04:05Z', NOW)).toBe(Date.parse('2030-01-02T03:04:05Z'))
    expect(parseDateInput('2030-01-02', NOW)).toBe(Date.parse('2030-01-02T00:00:00Z'))
    expect(parseDateInput('tomorrow', NOW)).toBeUndefined()
    expect(parseDateInput('+1y', NOW)).toBeUndefined()
    expect(resolveDateInput('+1h', NOW)).toBe('2030-01-01T01:00:00Z')
  })

  it('keeps the typed text so a relative time is resolved when the command runs', () => {
    const ok = validateArgs(form, { name: 'a', level: 'low', at: '+1h' })
    expect(ok.ok && ok.value.at).toBe('+1h')
    const bad = validateArgs(form, { name: 'a', level: 'low', at: 'soon' })
    expect(!bad.ok && bad.errors).toEqual([{ field: 'at', key: 'err.date' }])
  })
})

describe('JSON and key-value lists', () => {
  it("says 'Please enter the correct JSON' for bad JSON", () => {
    const bad = validateArgs(form, { name: 'a', level: 'low', body: '{a: 1' })
    expect(!bad.ok && bad.errors).toEqual([{ field: 'body', key: 'err.json' }])
    const ok = validateArgs(form, { name: 'a', level: 'low', body: '{"a": 1}' })
    expect(ok.ok && ok.value.body).toEqual({ a: 1 })
  })

  it('reads key-value pairs from the form, JSON, lines or commas', () => {
    expect(parseKeyValues('[["k","v"],["",""],["a","b"]]')).toEqual({ value: [['k', 'v'], ['a', 'b']] })
    expect(parseKeyValues('{"k":"v"}')).toEqual({ value: [['k', 'v']] })
    expect(parseKeyValues('k=v, a = b=c')).toEqual({ value: [['k', 'v'], ['a', 'b=c']] })
    expect(parseKeyValues('k=v\na=b')).toEqual({ value: [['k', 'v'], ['a', 'b']] })
    expect(parseKeyValues('novalue')).toEqual({ error: 'err.keyValues' })
    expect(parseKeyValues('[["","v"]]')).toEqual({ error: 'err.keyRequired' })
    expect(parseKeyValues('{bad')).toEqual({ error: 'err.json' })
    const ok = validateArgs(form, { name: 'a', level: 'low', props: '[["region","eu"],["",""]]' })
    expect(ok.ok && ok.value.props).toEqual({ region: 'eu' })
    const empty = validateArgs(form, { name: 'a', level: 'low', props: '[["",""]]' })
    expect(empty.ok && empty.value.props).toBeUndefined()
  })
})

describe('inline error texts', () => {
  it('says the range when a number has both bounds, and asks to select a required pick list', () => {
    const bad = validateArgs(form, { name: '', count: '11' })
    expect(!bad.ok && bad.errors).toEqual([
      { field: 'name', key: 'err.required', values: { requirement: 1 } },
      { field: 'count', key: 'err.range', values: { min: 1, max: 10 } },
      { field: 'level', key: 'err.select' },
    ])
  })
})
