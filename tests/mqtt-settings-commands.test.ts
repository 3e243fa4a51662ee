// Issue 14's MQTT settings commands as the screens run them (the form's text values, validated,
// then run) against the real embedded server, each checked by what real mqtt.js clients then see.
import { describe, expect, it } from 'vitest'
import { generalSettings, sessionSettings } from '../commands/mqtt.ts'
import { settingsValues } from '../commands/mqttSettings.ts'
import { movedRule } from '../commands/topicRewrite.ts'
import { validateArgs } from '../commands/args.ts'
import { getCommand } from '../commands/registry.ts'
import { retainerValues, sysTopicsValues, delayedValues } from '../src/features/mqttSettings/settingsValues.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'
import { nextMessage, subackCodes, waitFor } from './support/server.ts'

const suite = consoleSuite()

const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(suite.api, id, raw)

describe('the settings forms', () => {
  it('fill with the settings in force, and saving them unchanged passes every check and changes nothing', async () => {
    const zone = await suite.api.mqttConfig.globalZone()
    for (const [id, kinds] of [['mqttGeneral.update', generalSettings], ['mqttSession.update', sessionSettings]] as const) {
      const values = settingsValues(kinds, zone.mqtt)
      // Only response_information is empty by default (and an empty box keeps it as it is).
      expect(Object.entries(values).filter(([, value]) => value === '').map(([key]) => key)).toEqual(id === 'mqttGeneral.update' ? ['response_information'] : [])
      await run(id, values)
    }
    expect(await suite.api.mqttConfig.globalZone()).toEqual(zone)

    const forms: Array<[string, Record<string, string>]> = [
      ['retainer.update', retainerValues(await suite.api.retainer.settings())],
      ['sysTopics.update', sysTopicsValues(await suite.api.mqttConfig.sysTopics())],
      ['delayed.update', delayedValues(await suite.api.delayed.settings())],
    ]
    for (const [id, values] of forms) expect(validateArgs(getCommand(id)!, values)).toMatchObject({ ok: true })
  })

  it('say what is wrong with a value, field by field, before anything runs', () => {
    expect(invalidArgs('mqttSession.update', { max_inflight: '0', max_mqueue_len: 'lots', mqueue_priorities: '{"t/1": 300}' })).toEqual([
      'max_inflight:err.range',
      'max_mqueue_len:err.infinityOrNumber',
      'mqueue_priorities:err.max',
    ])
    expect(invalidArgs('mqttGeneral.update', { server_keepalive: 'never', max_packet_size: 'big', max_qos_allowed: '3' })).toEqual([
      'max_packet_size:err.size',
      'max_qos_allowed:err.oneOf',
      'server_keepalive:err.disabledOrNumber',
    ])
    expect(invalidArgs('retainer.update', { delivery_rate: 'fast', storage_type: 'tape' })).toEqual(['storage_type:err.oneOf', 'delivery_rate:err.rate'])
  })
})

describe('MQTT general and session settings', () => {
  it('mqttGeneral.update: a lower max_topic_levels refuses a deeper subscription at once', async () => {
    const form = settingsValues(generalSettings, (await suite.api.mqttConfig.globalZone()).mqtt)
    await run('mqttGeneral.update', { ...form, max_topic_levels: '2', max_qos_allowed: '1' })
    expect((await suite.api.mqttConfig.globalZone()).mqtt).toMatchObject({ max_topic_levels: 2, max_qos_allowed: 1 })
    const client = await suite.ts.connect({ clientId: 'levels', protocolVersion: 5 })
    expect(await subackCodes(client, ['a/b/c', 'a/b'], { qos: 2 })).toEqual([0x8f, 1])
    await run('mqttGeneral.update', { max_topic_levels: '128', max_qos_allowed: '2' })
  })

  it('mqttSession.update: new sessions get the new inflight window; words and JSON are taken as typed', async () => {
    await run('mqttSession.update', { max_inflight: '5', max_subscriptions: 'infinity', mqueue_priorities: '{"t/1": 10}' })
    expect((await suite.api.mqttConfig.globalZone()).mqtt).toMatchObject({ max_inflight: 5, max_subscriptions: 'infinity', mqueue_priorities: { 't/1': 10 } })
    await suite.ts.connect({ clientId: 'window', protocolVersion: 5 })
    expect((await suite.api.clients.get('window')).inflight_max).toBe(5)
    await run('mqttSession.update', { max_inflight: '32', mqueue_priorities: '"disabled"' })
    expect((await suite.api.mqttConfig.globalZone()).mqtt?.mqueue_priorities).toBe('disabled')
  })
})

describe('client attributes in the general settings', () => {
  const GROUP = "nth(1, tokens(clientid, '-'))"

  it('mqttGeneral.update: rows of expression and attribute name set attributes on connecting clients; removing every row clears them', async () => {
    const form = settingsValues(generalSettings, (await suite.api.mqttConfig.globalZone()).mqtt)
    expect(form.client_attrs_init).toBe('[]')
    // The form's rows, an empty one being typed among them.
    await run('mqttGeneral.update', { ...form, client_attrs_init: JSON.stringify([[GROUP, 'group'], ['', '']]) })
    const mqtt = (await suite.api.mqttConfig.globalZone()).mqtt
    expect(mqtt?.client_attrs_init).toEqual([{ expression: GROUP, set_as_attr: 'group' }])
    expect(settingsValues(generalSettings, mqtt).client_attrs_init).toBe(JSON.stringify([[GROUP, 'group']]))
    await suite.ts.connect({ clientId: 'red-1', protocolVersion: 5 })
    expect((await suite.api.clients.get('red-1')).client_attrs).toEqual({ group: 'red' })
    // A script may give the objects themselves.
    await run('mqttGeneral.update', { client_attrs_init: '[{"expression": "upper(clientid)", "set_as_attr": "id"}]' })
    expect((await suite.api.mqttConfig.globalZone()).mqtt?.client_attrs_init).toEqual([{ expression: 'upper(clientid)', set_as_attr: 'id' }])
    await run('mqttGeneral.update', { client_attrs_init: '[]' })
    expect((await suite.api.mqttConfig.globalZone()).mqtt?.client_attrs_init).toEqual([])
  })

  it('says what is wrong with the rows before anything runs', () => {
    expect(invalidArgs('mqttGeneral.update', { client_attrs_init: 'group=x' })).toEqual(['client_attrs_init:err.json'])
    expect(invalidArgs('mqttGeneral.update', { client_attrs_init: '{"a": 1}' })).toEqual(['client_attrs_init:err.rows'])
    // The server's checks, made first with the same grammar: 5.8's compile error, and the attribute name rule.
    const command = getCommand('mqttGeneral.update')!
    const errors = (rows: string[][]) => {
      const checked = validateArgs(command, { client_attrs_init: JSON.stringify(rows) })
      return checked.ok ? [] : checked.errors
    }
    expect(errors([['nth(', 'g'], ['clientid', '-x']])).toEqual([{ field: 'client_attrs_init', key: 'err.attrExpression', values: { received: '1', expected: 'syntax error before: ' } }])
    expect(errors([['clientid', 'ok'], ['clientid', '-x']])).toEqual([{ field: 'client_attrs_init', key: 'err.attrName', values: { received: '2' } }])
  })
})

describe('topic rewrite rules', () => {
  it('moves a rule in the list', () => {
    expect(movedRule(['a', 'b', 'c'], 3, 1)).toEqual(['c', 'a', 'b'])
    expect(movedRule(['a', 'b', 'c'], 1, 2)).toEqual(['b', 'a', 'c'])
    expect(movedRule(['a', 'b', 'c'], 1, 9)).toEqual(['b', 'c', 'a'])
  })

  it('edit and move change which rule rewrites a publish; remove by number', async () => {
    await run('topicRewrite.add', { action: 'publish', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'first/$1' })
    await run('topicRewrite.add', { action: 'publish', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'second/$1' })
    const listener = await suite.ts.connect({ clientId: 'rewrite-listener' })
    await listener.subscribeAsync('+/#', { qos: 1 })
    const publisher = await suite.ts.connect({ clientId: 'rewrite-publisher' })

    const published = async (topic: string) => {
      const message = nextMessage(listener)
      await publisher.publishAsync(topic, 'p', { qos: 1 })
      return (await message).topic
    }
    // The last matching rule rewrites, as in EMQX 5.8.
    expect(await published('x/1')).toBe('second/1')
    await run('topicRewrite.move', { index: '2', to: '1' })
    expect(await published('x/2')).toBe('first/2')
    await run('topicRewrite.edit', { index: '2', action: 'publish', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'edited/$1' })
    expect(await published('x/3')).toBe('edited/3')
    expect((await suite.api.topicRewrite.list()).map((r) => r.dest_topic)).toEqual(['second/$1', 'edited/$1'])

    await expect(run('topicRewrite.move', { index: '5', to: '1' })).rejects.toMatchObject({ status: 404 })
    await run('topicRewrite.remove', { index: '1' })
    await run('topicRewrite.remove', { index: '1' })
    expect(await suite.api.topicRewrite.list()).toEqual([])
  })
})

describe('auto subscribe', () => {
  it('autoSubscribe.edit changes a topic that connecting clients are then subscribed to', async () => {
    await run('autoSubscribe.add', { topic: 'old/${clientid}' })
    await run('autoSubscribe.edit', { index: '1', topic: 'new/${clientid}', qos: '1', nl: 'true' })
    expect(await suite.api.autoSubscribe.list()).toEqual([{ topic: 'new/${clientid}', qos: 1, nl: 1, rap: 0, rh: 0 }])
    await suite.ts.connect({ clientId: 'auto-edit', protocolVersion: 5 })
    await waitFor(async () => (await suite.api.clients.subscriptions('auto-edit')).some((s) => s.topic === 'new/auto-edit' && s.qos === 1), 'the edited auto-subscription')
    await expect(run('autoSubscribe.edit', { index: '2', topic: 'x' })).rejects.toMatchObject({ status: 404 })
    await run('autoSubscribe.remove', { topic: 'new/${clientid}' })
  })
})

describe('retainer storage', () => {
  it('retainer.update puts storage_type under backend, where 5.8 keeps it', async () => {
    await run('retainer.update', { storage_type: 'ram' })
    expect((await suite.api.retainer.settings()).backend?.storage_type).toBe('ram')
    await run('retainer.update', { storage_type: 'disc' })
  })
})
