// The rule form's values: a saved rule read into the form and back unchanged, every field checked
// with the messages the screen shows, the arguments Save hands rule.create and rule.update (which
// validate them as the palette would), SPEC 4's copy name, and moving outputs.
import { describe, expect, it } from 'vitest'
import { validateArgs } from '../commands/args.ts'
import { createRule, updateRule } from '../commands/rules.ts'
import type { RuleInfo } from '../contract/rules.ts'
import {
  comparable,
  createArgs,
  moveOutput,
  newOutput,
  newRuleValues,
  ruleFormErrors,
  ruleFormValues,
  ruleOutput,
  updateArgs,
  type RepublishDraft,
  type RuleFormValues,
} from '../src/features/rules/ruleFormValues.ts'
import { duplicateName } from '../src/ui/duplicateName.ts'

const saved: RuleInfo = {
  id: 'hot',
  name: 'Hot rooms',
  from: ['sensors/#'],
  sql: 'SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30',
  actions: [
    { function: 'republish', args: { topic: 'alerts/${t}', qos: 1, retain: false, payload: '{"t": ${t}}', mqtt_properties: { 'Content-Type': 'application/json' }, user_properties: '', direct_dispatch: false } },
    { function: 'console' },
    'http:hook',
    { function: 'mod:func', args: { a: 1 } },
  ],
  enable: true,
  description: 'note',
  created_at: '2026-11-25T10:00:00.000+00:00',
  last_modified_at: '2026-11-25T10:00:00.000+00:00',
}

const republishOf = (values: RuleFormValues) => values.outputs[0] as RepublishDraft

describe('rule form values', () => {
  it('reads a saved rule into the form and gives back the same outputs', () => {
    const values = ruleFormValues(saved)
    expect(values).toMatchObject({ id: 'hot', name: 'Hot rooms', description: 'note', enable: true, sql: saved.sql })
    expect(values.outputs.map((o) => o.kind)).toEqual(['republish', 'console', 'action', 'custom'])
    expect(republishOf(values)).toMatchObject({ topic: 'alerts/${t}', qos: '1', retain: 'false', directDispatch: 'false' })
    expect(republishOf(values).mqttProperties['Content-Type']).toBe('application/json')
    expect(values.outputs.map(ruleOutput)).toEqual(saved.actions)
  })

  it('shows EMQX defaults for republish arguments a rule left out', () => {
    const values = ruleFormValues({ ...saved, actions: [{ function: 'republish', args: { topic: 't' } }] })
    expect(republishOf(values)).toMatchObject({ payload: '${payload}', qos: '${qos}', retain: '${retain}', userProperties: '${user_properties}', directDispatch: 'false' })
  })

  it('starts a new rule as EMQX does: rule_ and four characters, every message of t/#, enabled, no outputs', () => {
    const values = newRuleValues()
    expect(values.id).toMatch(/^rule_[a-z0-9]{4}$/)
    expect(values).toMatchObject({ sql: 'SELECT\n  *\nFROM\n  "t/#"', enable: true, outputs: [] })
    expect(ruleFormErrors(values)).toEqual({})
  })

  it('starts a rule from an action’s row sending to it, and from a source’s row reading its $bridges/ topic', () => {
    const fromAction = newRuleValues({ action: 'http:notify' })
    expect(fromAction.outputs).toMatchObject([{ kind: 'action', id: 'http:notify' }])
    expect(ruleFormErrors(fromAction)).toEqual({})
    expect(newRuleValues({ source: 'mqtt:inbound' })).toMatchObject({ sql: 'SELECT\n  *\nFROM\n  "$bridges/mqtt:inbound"', outputs: [] })
  })

  it('starts a new republish as the dashboard does: QoS 0, not retained, the whole selection as payload', () => {
    const draft = newOutput('republish') as RepublishDraft
    expect(ruleOutput({ ...draft, topic: 'out' })).toEqual({
      function: 'republish',
      args: { topic: 'out', qos: 0, retain: false, payload: '', mqtt_properties: {}, user_properties: '', direct_dispatch: false },
    })
  })

  it('says what is wrong field by field, with the screen’s messages', () => {
    const values = newRuleValues()
    const republish = { ...(newOutput('republish') as RepublishDraft), qos: '5', retain: 'sometimes' }
    const wrong: RuleFormValues = {
      ...values,
      id: '规则',
      sql: ' ',
      outputs: [republish, { ...(newOutput('republish') as RepublishDraft), topic: 'a/#' }, newOutput('action'), { ...newOutput('action'), id: 'webhook' } as RuleFormValues['outputs'][number], { kind: 'custom', key: 'c', json: '{"args":{}}' }],
    }
    expect(ruleFormErrors(wrong)).toEqual({
      id: 'rules.err.id',
      sql: 'rules.err.sqlRequired',
      'outputs.0.topic': 'err.topicRequired',
      'outputs.0.qos': 'rules.err.qos',
      'outputs.0.retain': 'rules.err.flag',
      'outputs.1.topic': 'err.topicWildcard',
      'outputs.2.id': 'rules.err.actionRequired',
      'outputs.3.id': 'rules.err.actions',
      'outputs.4.json': 'rules.err.customOutput',
    })
    expect(ruleFormErrors({ ...values, id: '' }).id).toBe('rules.err.idRequired')
    // A saved rule keeps whatever id EMQX's API gave it.
    expect(ruleFormErrors({ ...values, id: 'made.by api' }, true)).toEqual({})
  })

  it('hands rule.create arguments it accepts, outputs in the form’s order', () => {
    const values = { ...ruleFormValues(saved), id: 'hot2' }
    const checked = validateArgs(createRule, createArgs(values))
    expect(checked.ok && checked.value).toMatchObject({ id: 'hot2', name: 'Hot rooms', sql: saved.sql, outputs: saved.actions })
  })

  it('hands rule.update every field in its body, so an emptied name or note is emptied', () => {
    const values = { ...ruleFormValues(saved), name: '', description: '' }
    const checked = validateArgs(updateRule, updateArgs(values))
    expect(checked.ok && checked.value).toMatchObject({ id: 'hot', body: { name: '', description: '', enable: true, sql: saved.sql, actions: saved.actions } })
  })

  it('given the values it loaded, hands rule.update only what the form changed, so a rule enabled elsewhere meanwhile stays enabled', () => {
    const initial = ruleFormValues(saved)
    const checked = validateArgs(updateRule, updateArgs({ ...initial, description: 'changed' }, initial))
    expect(checked.ok && checked.value).toEqual(expect.objectContaining({ id: 'hot', body: { description: 'changed' } }))
  })

  it('tells unsaved edits apart from the rows being told apart', () => {
    const values = ruleFormValues(saved)
    const again = ruleFormValues(saved)
    expect(comparable(values)).toBe(comparable(again))
    expect(comparable({ ...values, description: 'changed' })).not.toBe(comparable(again))
  })

  it('names a copy as SPEC 4 says: _duplication, then a counter', () => {
    expect(duplicateName('hot')).toBe('hot_duplication')
    expect(duplicateName('hot_duplication')).toBe('hot_duplication_1')
    expect(duplicateName('hot_duplication_1')).toBe('hot_duplication_2')
    expect(duplicateName('hot_duplication_9')).toBe('hot_duplication_10')
  })

  it('moves an output up or down', () => {
    const [a, b, c] = [newOutput('console'), newOutput('action'), newOutput('republish')]
    expect(moveOutput([a, b, c], 2, 0)).toEqual([c, a, b])
    expect(moveOutput([a, b, c], 0, 1)).toEqual([b, a, c])
  })
})
