// The webhook form's values as the screens use them: a new webhook's defaults pass webhook.create's
// own checks once named; each topic row, the trigger, a header and an advanced field say what is
// wrong; a saved webhook's values go back as webhook.update's arguments, cleared parts cleared.
import { describe, expect, it } from 'vitest'
import { validateArgs } from '../commands/args.ts'
import { getCommand } from '../commands/registry.ts'
import type { Webhook } from '../commands/webhookModel.ts'
import { advancedSettings } from '../src/features/webhook/advancedFields.ts'
import { createArgs, newWebhookValues, updateArgs, webhookFormErrors, webhookFormValues } from '../src/features/webhook/webhookFormValues.ts'

const named = { ...newWebhookValues(), name: 'orders', url: 'http://127.0.0.1:8080/hook/${clientid}' }

describe('webhook form values', () => {
  it("starts at EMQX's defaults: all topics, POST, content-type JSON, the HTTP advanced settings at 5.8.9's values", () => {
    const values = newWebhookValues()
    expect(values).toMatchObject({ topics: ['#'], events: [], method: 'post', headers: [['content-type', 'application/json']] })
    expect(values.advanced.connector).toMatchObject({ connect_timeout: '15s', pool_type: 'random', pool_size: '8', enable_pipelining: '100', 'ssl.enable': 'false' })
    expect(values.advanced.action).toMatchObject({ 'parameters.max_retries': '2', 'resource_opts.request_ttl': '45s', 'resource_opts.query_mode': 'async' })
  })

  it("a named one passes webhook.create's checks, advanced settings as the command's JSON", () => {
    expect(webhookFormErrors(named)).toEqual({})
    const args = createArgs(named)
    expect(validateArgs(getCommand('webhook.create')!, args).ok).toBe(true)
    expect(args).toMatchObject({ name: 'orders', topics: '#', events: '', method: 'post', headers: { 'content-type': 'application/json' } })
    expect(args.connector).toMatchObject({ connect_timeout: '15s', pool_size: 8, ssl: { enable: false } })
    expect(args.action).toMatchObject({ parameters: { max_retries: 2 }, resource_opts: { request_ttl: '45s' } })
  })

  it('says what is wrong by field: name, URL, each topic row, the trigger, a header, an advanced field', () => {
    const errors = webhookFormErrors({
      ...named,
      name: 'a b',
      url: 'http://${host}:80/x',
      topics: ['t/#', 'a/#/b', 't/#', ''],
      headers: [['', 'x']],
      advanced: { ...named.advanced, connector: { ...named.advanced.connector, pool_size: '0' } },
    })
    expect(errors).toEqual({
      name: { key: 'webhook.err.name' },
      url: { key: 'webhook.err.urlTemplate' },
      'topics.1': { key: 'err.topicFilter' },
      'topics.2': { key: 'webhook.err.topicRepeated' },
      'topics.3': { key: 'err.topicRequired' },
      headers: { key: 'err.keyRequired' },
      'advanced.connector.pool_size': { key: 'err.min', values: { min: 1 } },
    })
    expect(webhookFormErrors({ ...named, topics: [], events: [] })).toEqual({ trigger: { key: 'webhook.err.trigger' } })
  })

  it("a saved webhook's values come back as update arguments: a cleared body, trigger part and note are cleared", () => {
    const webhook = {
      name: 'orders',
      id: 'orders_WH_D',
      enable: true,
      url: 'http://h/x',
      method: 'put',
      trigger: { topics: ['orders/#'], events: ['$events/client_connected'] },
      connector: { type: 'http', name: 'orders_WH_D', url: 'http://h/x', headers: { 'x-token': 'abc' }, pool_size: 2, enable: true, status: 'connected', node_status: [], actions: [], sources: [] },
      action: { type: 'http', name: 'orders_WH_D', connector: 'orders_WH_D', parameters: { method: 'put', body: '${payload}', max_retries: 0 }, enable: true, status: 'connected', node_status: [], rules: [] },
      rule: { id: 'orders_WH_D', name: '', from: ['orders/#', '$events/client_connected'], sql: '', actions: [], enable: true, description: 'n', created_at: '', last_modified_at: '' },
    } as unknown as Webhook
    const values = webhookFormValues(webhook)
    expect(values).toMatchObject({ name: 'orders', method: 'put', body: '${payload}', headers: [['x-token', 'abc']], description: 'n' })
    expect(values.advanced.connector.pool_size).toBe('2')
    expect(advancedSettings(values.advanced).settings.action).toMatchObject({ parameters: { max_retries: 0 } })

    const args = updateArgs({ ...values, body: '', events: [], description: '', advanced: { ...values.advanced, connector: { ...values.advanced.connector, pool_size: '' } } })
    expect(args).toMatchObject({ topics: 'orders/#', events: ' ', description: ' ', action: { parameters: { body: null, max_retries: 0 } } })
    // Emptied and hidden advanced fields are removed from the saved config, not kept.
    expect(args.connector).toMatchObject({ pool_size: null, ssl: { enable: false, verify: null, server_name_indication: null } })
    expect(validateArgs(getCommand('webhook.update')!, args).ok).toBe(true)
  })
})
