// The pieces of the outputs and metrics on their own: EMQX's `${…}` templates (emqx_template with
// jsonish bindings), republish rendering, and the rates of `matched` as EMQX's metrics worker samples them.
import { describe, expect, it } from 'vitest'
import { republishArgsWithDefaults, republishTemplates } from '../server/rules/engine/outputs.ts'
import { RuleMetricsCounters } from '../server/rules/engine/metrics.ts'
import { renderRepublish } from '../server/rules/engine/republish.ts'
import { parseTemplate, renderTemplate } from '../server/rules/engine/template.ts'

const render = (text: string, data: unknown) => renderTemplate(parseTemplate(text), data)

describe('templates', () => {
  it('renders paths, the whole map, maps as JSON, missing values as undefined and ${$} as $', () => {
    const data = { t: 35, f: 1.5, name: 'a', nested: { x: [1, 2] }, ok: true, nil: null, payload: '{"a":{"b":"deep"}}' }
    expect(render('alerts/${t}/${name}', data)).toBe('alerts/35/a')
    expect(render('${f}', data)).toBe('1.5')
    expect(render('${nested}', data)).toBe('{"x":[1,2]}')
    expect(render('${nested.x}', data)).toBe('[1,2]')
    expect(render('${.}', { a: 1 })).toBe('{"a":1}')
    expect(render('${.name}', data)).toBe('a')
    expect(render('${ok}-${nil}', data)).toBe('true-null')
    expect(render('${missing}/${nested.y}', data)).toBe('undefined/undefined')
    expect(render('${payload.a.b}', data)).toBe('deep')
    expect(render('cost: ${$}5', data)).toBe('cost: $5')
    expect(render("${pub_props.'User-Property'}", data)).toBe("${pub_props.'User-Property'}")
  })
})

describe('republish rendering', () => {
  const templates = (args: Record<string, unknown>) => republishTemplates(republishArgsWithDefaults({ topic: 't', ...args }))

  it('takes QoS, retain and direct dispatch from one placeholder each, with the defaults when missing', () => {
    const message = renderRepublish(templates({}), { payload: 'p' }, {}, 'r')
    expect(message).toMatchObject({ topic: 't', qos: 0, retain: false, directDispatch: false, properties: undefined })
    expect(message.payload.toString()).toBe('p')
    expect(renderRepublish(templates({}), { qos: 2, retain: true, payload: 'p' }, {}, 'r')).toMatchObject({ qos: 2, retain: true })
    expect(renderRepublish(templates({ qos: 1, retain: true, direct_dispatch: true }), {}, {}, 'r')).toMatchObject({ qos: 1, retain: true, directDispatch: true })
    expect(() => renderRepublish(templates({}), { qos: 7 }, {}, 'r')).toThrow(/bad qos/)
  })

  it('an empty payload template republishes the whole selected map; bytes stay bytes', () => {
    expect(renderRepublish(templates({ payload: '' }), { a: 1 }, {}, 'r').payload.toString()).toBe('{"a":1}')
    const bytes = Buffer.from([0xff, 0x00, 0x80])
    expect(renderRepublish(templates({}), { payload: bytes }, {}, 'r').payload.equals(bytes)).toBe(true)
  })

  it('user properties from a placeholder or the publisher, integer properties checked', () => {
    const fromVar = renderRepublish(templates({ user_properties: '${props}' }), { props: { a: '1', b: 2 } }, {}, 'r')
    expect(fromVar.properties).toEqual({ userProperties: { a: '1', b: '2' } })
    const original = renderRepublish(templates({ user_properties: "${pub_props.'User-Property'}" }), {}, { pub_props: { 'User-Property': { k: 'v' } } }, 'r')
    expect(original.properties).toEqual({ userProperties: { k: 'v' } })
    const props = renderRepublish(templates({ mqtt_properties: { 'Payload-Format-Indicator': '${pfi}', 'Message-Expiry-Interval': 'x', 'Response-Topic': 'r/${id}' } }), { pfi: 1, id: 7 }, {}, 'r')
    expect(props.properties).toEqual({ payloadFormatIndicator: true, responseTopic: 'r/7' })
  })
})

describe('rule metrics rates', () => {
  it('samples matched per second each period: current, max since start, the mean of the last five minutes, two decimals', () => {
    const m = new RuleMetricsCounters(10_000)
    m.matched = 25
    m.sample()
    expect(m.snapshot()).toMatchObject({ 'matched.rate': 2.5, 'matched.rate.max': 2.5, 'matched.rate.last5m': 2.5 })
    m.matched += 1
    m.sample()
    expect(m.snapshot()).toMatchObject({ 'matched.rate': 0.1, 'matched.rate.max': 2.5, 'matched.rate.last5m': 1.3 })
    for (let i = 0; i < 30; i++) m.sample()
    expect(m.snapshot()).toMatchObject({ 'matched.rate': 0, 'matched.rate.max': 2.5, 'matched.rate.last5m': 0 })
    m.reset()
    expect(Object.values(m.snapshot()).every((value) => value === 0)).toBe(true)
  })
})
