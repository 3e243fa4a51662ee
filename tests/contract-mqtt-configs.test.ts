// The MQTT settings contract (contract/mqtt-configs.ts) against the server's real answers to
// /configs/mqtt, /configs/global_zone and /configs/sys_topics, and the browser's API module reading them.
import * as v from 'valibot'
import { afterAll, describe, expect, it } from 'vitest'
import {
  GlobalZoneReadSchema,
  GlobalZoneSchema,
  mqttConfigsErrors,
  MqttSettingsReadSchema,
  sysTopicsSchema,
  SysTopicsReadSchema,
  ZoneMqttSchema,
} from '../contract/mqtt-configs.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()
const put = (path: string, body: unknown) => suite.api.request('PUT', path, body)

describe('mqtt configs contract', () => {
  afterAll(async () => {
    await put('/configs/mqtt', { max_inflight: 32 })
    await put('/configs/sys_topics', { sys_msg_interval: '1m' })
  })

  it('/configs/mqtt: GET and PUT answer the contract; a refused PUT changes nothing', async () => {
    const before = expectContract(ZoneMqttSchema, (await suite.api.get('/configs/mqtt')).body, 'mqtt')
    expect(v.is(MqttSettingsReadSchema, before)).toBe(true)
    const updated = expectContract(ZoneMqttSchema, (await put('/configs/mqtt', { max_inflight: 64 })).body, 'mqtt updated')
    expect(updated.max_inflight).toBe(64)

    expectContractError(await put('/configs/mqtt', { max_inflight: 0 }), mqttConfigsErrors.badRequest)
    expectContractError(await put('/configs/mqtt', { max_packet_size: 'huge' }), mqttConfigsErrors.badRequest)
    expectContractError(await put('/configs/mqtt', { no_such_key: 1 }), mqttConfigsErrors.badRequest)
    expectContractError(await put('/configs/mqtt', { keepalive_backoff: 0.5 }), mqttConfigsErrors.badRequest)
    expect((await suite.api.get('/configs/mqtt')).body).toEqual(updated)
  })

  it('/configs/global_zone: GET and PUT answer the contract; a refused PUT changes nothing', async () => {
    const zone = expectContract(GlobalZoneSchema, (await suite.api.get('/configs/global_zone')).body, 'global zone')
    expect(v.is(GlobalZoneReadSchema, zone)).toBe(true)
    // Sending back what it read passes, kept roots included.
    expectContract(GlobalZoneSchema, (await put('/configs/global_zone', zone)).body, 'global zone sent back')
    const updated = expectContract(GlobalZoneSchema, (await put('/configs/global_zone', { mqtt: { max_inflight: 48 } })).body, 'global zone updated')
    expect(updated.mqtt.max_inflight).toBe(48)

    expectContractError(await put('/configs/global_zone', { mqtt: { max_inflight: 48 }, flapping_detect: { max_count: 0 } }), mqttConfigsErrors.badRequest)
    expectContractError(await put('/configs/global_zone', { force_gc: { count: 1 } }), mqttConfigsErrors.badRequest)
    expectContractError(await put('/configs/global_zone', { no_such_root: {} }), mqttConfigsErrors.badRequest)
    expect((await suite.api.get('/configs/global_zone')).body).toEqual(updated)
  })

  it('/configs/sys_topics: GET and PUT answer the contract; a refused PUT changes nothing', async () => {
    const before = expectContract(sysTopicsSchema, (await suite.api.get('/configs/sys_topics')).body, 'sys topics')
    expect(v.is(SysTopicsReadSchema, before)).toBe(true)
    const updated = expectContract(sysTopicsSchema, (await put('/configs/sys_topics', { sys_msg_interval: '2m' })).body, 'sys topics updated')
    expect(updated.sys_msg_interval).toBe('2m')

    expectContractError(await put('/configs/sys_topics', { sys_msg_interval: 'sometimes' }), mqttConfigsErrors.badRequest)
    expectContractError(await put('/configs/sys_topics', { sys_event_messages: { client_connected: 'yes' } }), mqttConfigsErrors.badRequest)
    expect((await suite.api.get('/configs/sys_topics')).body).toEqual(updated)
  })

  it('the browser reads and changes each through its API module', async () => {
    const console = await consoleApi(suite.t)
    const general = await console.mqttConfig.general()
    expect((await console.mqttConfig.updateGeneral({ ...general, max_inflight: 40 })).max_inflight).toBe(40)
    const zone = await console.mqttConfig.globalZone()
    expect(zone.mqtt?.max_inflight).toBe(40)
    expect((await console.mqttConfig.updateGlobalZone({ mqtt: { ...zone.mqtt, max_inflight: 32 } })).mqtt?.max_inflight).toBe(32)
    const sys = await console.mqttConfig.sysTopics()
    expect((await console.mqttConfig.updateSysTopics({ ...sys, sys_msg_interval: '1m' })).sys_msg_interval).toBe('1m')
  })
})
