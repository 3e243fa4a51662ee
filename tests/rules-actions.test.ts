// Actions by id through the engine's ActionRegistry (what issue 16's data integration registers
// into): each answer counted as 5.8 counts it, answers that come later counted when they come, a
// type nobody registered counted as a missing action, and the selected output handed over.
import { afterEach, describe, expect, it } from 'vitest'
import { Broker } from '../server/broker/broker.ts'
import { createMessage } from '../server/broker/message.ts'
import { RuleEngine, type ActionOutcome, type ActionSend } from '../server/rules/engine/index.ts'
import { waitFor } from './support/server.ts'

const running: Array<{ broker: Broker; engine: RuleEngine }> = []
afterEach(async () => {
  for (const { broker, engine } of running.splice(0)) {
    engine.stop()
    await broker.close()
  }
})

function engineOn(rateSamplingMs?: number): { broker: Broker; engine: RuleEngine } {
  const broker = new Broker()
  const engine = new RuleEngine(broker, { rateSamplingMs })
  running.push({ broker, engine })
  return { broker, engine }
}

const publish = (broker: Broker, topic: string, payload: string) =>
  broker.publish(createMessage({ topic, payload: Buffer.from(payload), qos: 0, retain: false, from: 'c1' }))

describe('actions by id', () => {
  it('hands the selected output to the dispatcher of the type, and counts each answer as 5.8 does', async () => {
    const { broker, engine } = engineOn()
    const sent: ActionSend[] = []
    let answer: ActionOutcome | Promise<ActionOutcome> = 'ok'
    engine.actions.register('http', (send) => {
      sent.push(send)
      return answer
    })
    engine.put({ id: 'r1', sql: 'SELECT payload.v AS v FROM "a/#"', enable: true, outputs: [{ kind: 'action', type: 'http', name: 'hook', id: 'http:hook' }] })
    const counted = () => engine.get('r1')!.metrics.snapshot()
    publish(broker, 'a/1', '{"v": 1}')
    expect(sent).toEqual([expect.objectContaining({ ruleId: 'r1', name: 'hook', selected: { v: 1 }, stopAfterRender: false })])
    expect(sent[0].envs).toMatchObject({ topic: 'a/1', clientid: 'c1' })
    expect(counted()).toMatchObject({ 'actions.total': 1, 'actions.success': 1 })
    for (answer of ['not_found', 'disabled', 'out_of_service', { error: 'boom' }] as ActionOutcome[]) publish(broker, 'a/1', '{"v": 2}')
    expect(counted()).toMatchObject({
      'actions.total': 5,
      'actions.success': 1,
      'actions.discarded': 2,
      'actions.failed': 2,
      'actions.failed.out_of_service': 1,
      'actions.failed.unknown': 1,
    })
    answer = Promise.resolve('ok')
    publish(broker, 'a/1', '{"v": 3}')
    answer = Promise.reject(new Error('later'))
    publish(broker, 'a/1', '{"v": 4}')
    await waitFor(() => counted()['actions.total'] === 7 && counted()['actions.success'] === 2 && counted()['actions.failed.unknown'] === 2, 'the later answers counted')
  })

  it('counts a type nobody registered as a missing action (discarded), and a dispatcher that throws as failed', () => {
    const { broker, engine } = engineOn()
    engine.put({ id: 'r2', sql: 'SELECT * FROM "b"', enable: true, outputs: [{ kind: 'action', type: 'kafka_producer', name: 'k', id: 'kafka_producer:k' }] })
    publish(broker, 'b', 'x')
    expect(engine.get('r2')!.metrics.snapshot()).toMatchObject({ 'actions.total': 1, 'actions.discarded': 1, 'actions.failed': 0 })
    const unregister = engine.actions.register('kafka_producer', () => {
      throw new Error('down')
    })
    publish(broker, 'b', 'x')
    expect(engine.get('r2')!.metrics.snapshot()).toMatchObject({ 'actions.total': 2, 'actions.failed': 1, 'actions.failed.unknown': 1 })
    unregister()
    publish(broker, 'b', 'x')
    expect(engine.get('r2')!.metrics.snapshot()).toMatchObject({ 'actions.total': 3, 'actions.discarded': 2 })
  })

  it('samples the matched rate on the engine\'s period', async () => {
    const { broker, engine } = engineOn(100)
    engine.put({ id: 'rate', sql: 'SELECT * FROM "r"', enable: true, outputs: [] })
    for (let i = 0; i < 5; i++) publish(broker, 'r', 'x')
    await waitFor(() => engine.get('rate')!.metrics.snapshot()['matched.rate.max'] === 50, 'a sampled rate of 5 per 0.1 s')
    expect(engine.get('rate')!.metrics.snapshot()['matched.rate.last5m']).toBeGreaterThan(0)
  })
})
