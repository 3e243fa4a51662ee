// The rule commands as the palette, scripts and the CLI run them, against the real embedded server
// with real mqtt.js clients: a rule created in one line republishes what its SQL selects; update
// merges what it is given; enable, disable, reset metrics and delete; arguments checked before
// anything is sent; rule ids completed from the server.
import { describe, expect, it } from 'vitest'
import { completeRuleId, ruleOutputs } from '../commands/rules.ts'
import { getCommand } from '../commands/registry.ts'
import { parseScript, rawArgs } from '../commands/script/parse.ts'
import { ApiError } from '../contract/api-error.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'
import { nextMessage, waitFor } from './support/server.ts'

const suite = consoleSuite()
const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(suite.api, id, raw)
const signal = () => new AbortController().signal
const metricsOf = async (id: string) => (await suite.api.rules.metrics(id)).metrics

describe('rule commands', () => {
  it('rule.create takes the SQL and a republish output in one line; a real subscriber gets what the rule selects', async () => {
    const created = await run('rule.create', {
      sql: 'SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30',
      id: 'hot',
      republish: 'alerts/${t}',
      payload: '{"t": ${t}}',
      qos: '1',
    })
    expect(created).toMatchObject({ id: 'hot', from: ['sensors/#'], enable: true })
    expect((await suite.api.rules.get('hot')).actions).toEqual([{ function: 'republish', args: expect.objectContaining({ topic: 'alerts/${t}', payload: '{"t": ${t}}', qos: 1 }) }])

    const subscriber = await suite.ts.connect({ clientId: 'alerts-sub' })
    await subscriber.subscribeAsync('alerts/#', { qos: 1 })
    const publisher = await suite.ts.connect({ clientId: 'sensor-1' })
    await publisher.publishAsync('sensors/room1', JSON.stringify({ temp: 20 }))
    const arrived = nextMessage(subscriber)
    await publisher.publishAsync('sensors/room1', JSON.stringify({ temp: 35 }), { qos: 1 })
    expect(await arrived).toMatchObject({ topic: 'alerts/35', payload: '{"t": 35}', qos: 1 })
    await waitFor(async () => (await metricsOf('hot')).matched === 2, 'both publishes matched')
    expect(await metricsOf('hot')).toMatchObject({ matched: 2, passed: 1, 'failed.no_result': 1 })
  })

  it('a script creates the rule in one line, its SQL quoted with its own quotes escaped and the topic a template', async () => {
    const { lines, errors } = parseScript('rule.create sql="SELECT payload.temp AS t FROM \\"sensors/#\\" WHERE t > 30" id=scripted republish=alerts/${t} # hot rooms')
    expect(errors).toEqual([])
    const args = rawArgs(lines[0])
    expect(args).toEqual({ sql: 'SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30', id: 'scripted', republish: 'alerts/${t}' })
    await run('rule.create', args)
    expect(await suite.api.rules.get('scripted')).toMatchObject({ from: ['sensors/#'], actions: [{ function: 'republish', args: expect.objectContaining({ topic: 'alerts/${t}' }) }] })
    await run('rule.delete', { id: 'scripted' })
  })

  it('rule.create without an id gets a random one, named by its result text', async () => {
    const command = getCommand('rule.create')
    const created = (await run('rule.create', { sql: 'SELECT * FROM "t/#"', console: 'true' })) as { id: string }
    expect(created.id).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(command?.resultText?.(created)).toEqual({ key: 'cmd.rule.created', values: { id: created.id } })
    expect((await suite.api.rules.get(created.id)).actions).toEqual([{ function: 'console' }])
    await run('rule.delete', { id: created.id })
  })

  it('keeps outputs in order: the JSON list, then republish, console and action ids', async () => {
    await run('rule.create', {
      id: 'outputs',
      sql: 'SELECT * FROM "t/#"',
      name: 'Outputs',
      description: 'every kind',
      enable: 'false',
      outputs: '[{"function":"console"}]',
      republish: 'copy/${topic}',
      retain: '${flags.retain}',
      mqtt_properties: 'Content-Type=application/json',
      actions: 'http:a, mqtt:b',
    })
    const rule = await suite.api.rules.get('outputs')
    expect(rule).toMatchObject({ name: 'Outputs', description: 'every kind', enable: false })
    expect(rule.actions).toEqual([
      { function: 'console' },
      { function: 'republish', args: expect.objectContaining({ topic: 'copy/${topic}', retain: '${flags.retain}', mqtt_properties: { 'Content-Type': 'application/json' } }) },
      'http:a',
      'mqtt:b',
    ])
  })

  it('rule.update changes only what it is given; outputs given replace the rule’s', async () => {
    await run('rule.create', { id: 'upd', sql: 'SELECT * FROM "a/#"', description: 'before', republish: 'b/x' })
    await run('rule.update', { id: 'upd', description: 'after' })
    expect(await suite.api.rules.get('upd')).toMatchObject({ sql: 'SELECT * FROM "a/#"', description: 'after', actions: [{ function: 'republish' }] })
    await run('rule.update', { id: 'upd', sql: 'SELECT * FROM "c/#", "d/+"', console: 'true' })
    expect(await suite.api.rules.get('upd')).toMatchObject({ from: ['c/#', 'd/+'], description: 'after', actions: [{ function: 'console' }] })
    await run('rule.update', { id: 'upd', outputs: '[]' })
    expect((await suite.api.rules.get('upd')).actions).toEqual([])
  })

  it('rule.disable stops a rule from matching, rule.enable starts it again; the completers offer the rules each can act on', async () => {
    await run('rule.create', { id: 'toggle', sql: 'SELECT * FROM "tg/#"', republish: 'tg-out/1' })
    await run('rule.create', { id: 'toggle-off', sql: 'SELECT * FROM "tg/#"', enable: 'false' })
    const disable = getCommand('rule.disable')?.complete?.id
    const enable = getCommand('rule.enable')?.complete?.id
    expect(await disable?.(suite.api, 'toggle', signal())).toEqual(['toggle'])
    expect(await enable?.(suite.api, 'toggle', signal())).toEqual(['toggle-off'])
    expect(await completeRuleId(suite.api, 'toggle', signal())).toEqual(expect.arrayContaining(['toggle', 'toggle-off']))

    await run('rule.disable', { id: 'toggle' })
    expect((await suite.api.rules.get('toggle')).enable).toBe(false)
    const publisher = await suite.ts.connect({ clientId: 'tg-pub' })
    await publisher.publishAsync('tg/1', 'x', { qos: 1 })
    expect((await metricsOf('toggle')).matched).toBe(0)
    await run('rule.enable', { id: 'toggle' })
    await publisher.publishAsync('tg/1', 'x', { qos: 1 })
    await waitFor(async () => (await metricsOf('toggle')).matched === 1, 'the enabled rule matched')
  })

  it('rule.resetMetrics zeroes the counters; rule.delete removes the rule (404 after)', async () => {
    await run('rule.create', { id: 'gone', sql: 'SELECT * FROM "g/#"' })
    const publisher = await suite.ts.connect({ clientId: 'g-pub' })
    await publisher.publishAsync('g/1', 'x', { qos: 1 })
    await waitFor(async () => (await metricsOf('gone')).matched === 1, 'matched once')
    await run('rule.resetMetrics', { id: 'gone' })
    expect((await metricsOf('gone')).matched).toBe(0)
    await run('rule.delete', { id: 'gone' })
    await expect(suite.api.rules.get('gone')).rejects.toMatchObject({ status: 404 })
  })

  it('delete asks first, reset metrics confirms; the others run at once', () => {
    expect(getCommand('rule.delete')).toMatchObject({ danger: true })
    expect(getCommand('rule.resetMetrics')).toMatchObject({ confirm: true })
    expect(getCommand('rule.delete')?.describe?.({ id: 'r1' })).toEqual({ key: 'cmd.rule.deleteDescribe', values: { id: 'r1' } })
    for (const id of ['rule.create', 'rule.update', 'rule.enable', 'rule.disable']) expect(getCommand(id)?.danger).toBeFalsy()
  })

  it('a server refusal (SQL that does not parse, an id taken) reaches the caller as its message', async () => {
    const refused = await run('rule.create', { sql: 'SELEC * FROM "t"' }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 400, code: 'BAD_REQUEST' })
    await run('rule.create', { id: 'taken', sql: 'SELECT * FROM "t"' })
    await expect(run('rule.create', { id: 'taken', sql: 'SELECT * FROM "t"' })).rejects.toMatchObject({ status: 400 })
    await expect(run('rule.enable', { id: 'no-such-rule' })).rejects.toBeInstanceOf(ApiError)
    await expect(run('rule.delete', { id: 'no-such-rule' })).rejects.toMatchObject({ status: 404 })
  })

  it('checks its arguments before sending anything', () => {
    expect(invalidArgs('rule.create', {})).toEqual(['sql:err.required'])
    expect(invalidArgs('rule.create', { sql: '  ' })).toEqual(['sql:rules.err.sqlRequired'])
    expect(invalidArgs('rule.create', { sql: 'SELECT 1', id: '规则' })).toEqual(['id:rules.err.id'])
    expect(invalidArgs('rule.create', { sql: 'SELECT 1', id: '_x' })).toEqual(['id:rules.err.id'])
    expect(invalidArgs('rule.create', { sql: 'SELECT 1', republish: 'a/#', qos: '3', retain: 'maybe' })).toEqual([
      'republish:err.topicWildcard',
      'qos:rules.err.qos',
      'retain:rules.err.flag',
    ])
    expect(invalidArgs('rule.create', { sql: 'SELECT 1', actions: 'webhook', mqtt_properties: 'Colour=red' })).toEqual([
      'mqtt_properties:rules.err.mqttProperties',
      'actions:rules.err.actions',
    ])
    expect(invalidArgs('rule.create', { sql: 'SELECT 1', outputs: '{"function":"console"}' })).toEqual(['outputs:rules.err.outputs'])
    expect(invalidArgs('rule.create', { sql: 'SELECT 1', outputs: '[oops' })).toEqual(['outputs:err.json'])
    expect(invalidArgs('rule.update', { id: 'x' })).toEqual([])
    // A rule made through EMQX's own API may have any id: the commands on saved rules take it.
    expect(invalidArgs('rule.delete', { id: 'made.by/the-api 规则' })).toEqual([])
    expect(invalidArgs('rule.delete', {})).toEqual(['id:err.required'])
  })
})

describe('ruleOutputs', () => {
  it('says nothing when no output argument is given, so an update keeps the rule’s', () => {
    expect(ruleOutputs({})).toBeUndefined()
    expect(ruleOutputs({ outputs: [] })).toEqual([])
  })

  it('turns QoS and flags into numbers and booleans, and keeps templates as written', () => {
    expect(ruleOutputs({ republish: 't', qos: '2', retain: 'true', direct_dispatch: '${x}' })).toEqual([
      { function: 'republish', args: { topic: 't', qos: 2, retain: true, direct_dispatch: '${x}' } },
    ])
    expect(ruleOutputs({ republish: 't', qos: '${qos}', retain: 'false' })).toEqual([{ function: 'republish', args: { topic: 't', qos: '${qos}', retain: false } }])
  })

  it('reads action ids separated by commas or spaces; console false adds nothing', () => {
    expect(ruleOutputs({ actions: 'http:a,mqtt:b  kafka:c', console: false })).toEqual(['http:a', 'mqtt:b', 'kafka:c'])
  })
})
