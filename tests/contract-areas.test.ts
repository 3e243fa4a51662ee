// The alarms, delayed publish and retainer contracts (contract/<area>.ts) against the server's real
// answers, and the browser's API modules reading them.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { AlarmConfigReadSchema, AlarmPageSchema, SysmonSchema } from '../contract/alarms.ts'
import { delayedErrors, DelayedMessageSchema, DelayedPageSchema, DelayedSettingsSchema } from '../contract/delayed.ts'
import { retainerErrors, RetainedMessageSchema, RetainedPageSchema, RetainerSettingsSchema } from '../contract/retainer.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()


describe('alarms contract', () => {
  it('the alarm pages and settings the server writes are the contract, and the browser reads them', async () => {
    await suite.api.request('PUT', '/configs/sysmon', { os: { mem_check_interval: '50ms', sysmem_high_watermark: '0%', cpu_check_interval: '1h' } })
    await waitFor(async () => (await suite.api.get('/alarms')).body.data.length > 0, 'an activated alarm')
    expectContract(AlarmPageSchema, (await suite.api.get('/alarms')).body, 'activated')
    await suite.api.request('PUT', '/configs/sysmon', { os: { mem_check_interval: 'disabled' } })
    await waitFor(async () => (await suite.api.get('/alarms?activated=false')).body.data.length > 0, 'the history')
    const history = expectContract(AlarmPageSchema, (await suite.api.get('/alarms?activated=false')).body, 'history')
    expect(history.data[0].deactivate_at).toBeDefined()
    expectContract(SysmonSchema, (await suite.api.get('/configs/sysmon')).body, 'sysmon')
    expectContract(AlarmConfigReadSchema, (await suite.api.get('/configs/alarm')).body, 'alarm config')

    const console = await consoleApi(suite.t)
    expect((await console.alarms.list({ activated: false })).data.length).toBeGreaterThan(0)
    expect((await console.sysmon.get()).os.mem_check_interval).toBe('disabled')
  })
})

describe('delayed contract', () => {
  it('the settings, list and message the server writes are the contract, with its errors', async () => {
    expectContract(DelayedSettingsSchema, (await suite.api.get('/mqtt/delayed')).body, 'settings')
    expect((await suite.api.post('/publish', { topic: '$delayed/3600/contract/delayed', payload: 'later', qos: 1 })).status).toBe(200)
    const page = expectContract(DelayedPageSchema, (await suite.api.get('/mqtt/delayed/messages')).body, 'list')
    const { node, msgid } = page.data[0]
    const one = expectContract(DelayedMessageSchema, (await suite.api.get(`/mqtt/delayed/messages/${node}/${msgid}`)).body, 'one')
    expect(Buffer.from(one.payload ?? '', 'base64').toString()).toBe('later')

    expectContractError(await suite.api.get(`/mqtt/delayed/messages/elsewhere@host/${msgid}`), delayedErrors.invalidNode)
    expectContractError(await suite.api.get(`/mqtt/delayed/messages/${node}/not-hex`), delayedErrors.badMessageId)
    expectContractError(await suite.api.get(`/mqtt/delayed/messages/${node}/${'0'.repeat(32)}`), delayedErrors.messageIdNotFound)
    expectContractError(await suite.api.delete(`/mqtt/delayed/messages/${encodeURIComponent('a/+')}`), delayedErrors.invalidTopic)
    expectContractError(await suite.api.delete(`/mqtt/delayed/messages/${encodeURIComponent('contract/none')}`), delayedErrors.topicNotFound)

    const console = await consoleApi(suite.t)
    expect((await console.delayed.messages()).data.map((m) => m.topic)).toEqual(['contract/delayed'])
    await console.delayed.delete(node, String(msgid))
  })
})

describe('retainer contract', () => {
  it('the settings, list and message the server writes are the contract, with its error', async () => {
    expectContract(RetainerSettingsSchema, (await suite.api.get('/mqtt/retainer')).body, 'settings')
    // No subscriber: 202, and the message is retained all the same.
    expect((await suite.api.post('/publish', { topic: 'contract/retained', payload: 'kept', qos: 1, retain: true })).status).toBe(202)
    expectContract(RetainedPageSchema, (await suite.api.get('/mqtt/retainer/messages')).body, 'list')
    expectContract(RetainedPageSchema, (await suite.api.get('/mqtt/retainer/messages?topic=contract/%23')).body, 'filtered list')
    const one = expectContract(RetainedMessageSchema, (await suite.api.get('/mqtt/retainer/message/contract%2Fretained')).body, 'one')
    expect(Buffer.from(one.payload ?? '', 'base64').toString()).toBe('kept')
    expectContractError(await suite.api.get('/mqtt/retainer/message/contract%2Fnone'), retainerErrors.notFound)

    const console = await consoleApi(suite.t)
    expect((await console.retainer.messages({ topic: 'contract/#' })).data.map((m) => m.topic)).toEqual(['contract/retained'])
    expect(v.is(RetainerSettingsSchema, await console.retainer.settings())).toBe(true)
    await console.retainer.delete('contract/retained')
  })
})
