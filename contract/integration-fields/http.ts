// HTTP (the webhook): connector and action (emqx_bridge_http_schema, emqx_bridge_http_connector 5.8.9).
import { DESCRIPTION, TLS } from './common.ts'
import type { TypeCatalogue } from './field.ts'

export const HTTP_METHODS = ['post', 'put', 'get', 'delete'] as const

export const http: TypeCatalogue = {
  connector: [
    DESCRIPTION,
    { path: 'url', kind: 'string', required: true, help: 'integrationFields.help.url' },
    { path: 'headers', kind: 'map' },
    { path: 'connect_timeout', kind: 'duration', advanced: true },
    { path: 'pool_type', kind: 'enum', options: ['random', 'hash'], advanced: true },
    { path: 'pool_size', kind: 'number', min: 1, advanced: true },
    { path: 'enable_pipelining', kind: 'number', min: 1, advanced: true },
    TLS,
  ],
  // No local_topic: EMQX's console hides it for http (a config holding one keeps it).
  action: [
    DESCRIPTION,
    { path: 'parameters.path', kind: 'template', help: 'integrationFields.help.httpPath' },
    { path: 'parameters.method', kind: 'enum', options: HTTP_METHODS },
    { path: 'parameters.headers', kind: 'map', help: 'integrationFields.help.templates' },
    { path: 'parameters.body', kind: 'template', multiline: true, help: 'integrationFields.help.httpBody' },
    { path: 'parameters.max_retries', kind: 'number', min: 0, advanced: true },
  ],
}
