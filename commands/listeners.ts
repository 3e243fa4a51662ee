// MQTT listeners: create one (tcp, ssl, ws, wss; quic is kept but does not run on the embedded
// broker), change, delete, start, stop, restart, enable and disable it. Stopping, disabling,
// restarting or deleting closes every connection it holds, and says so before it runs.
import * as v from 'valibot'
import { LISTENER_TYPES, parseBind, parseRate } from '../contract/listeners.ts'
import { givenArgs, keepsCurrent } from './args.ts'
import { defineCommand, type Completer } from './define.ts'
import { defineRead, tableOf } from './format/read.ts'
import type { Listener } from '../src/api/listeners.ts'

/** Listener ids (`tcp:default`) that contain what was typed. */
export const completeListenerId: Completer = async (api, query, signal) =>
  (await api.listeners.list(signal)).map((listener) => listener.id).filter((id) => id.includes(query.trim()))

const LISTENER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/
const ENABLE_AUTHN = ['true', 'false', 'quick_deny_anonymous'] as const
const VERIFY = ['verify_none', 'verify_peer'] as const

const listenerId = () =>
  v.pipe(
    v.string(),
    v.title('form.field.listenerId'),
    v.check((id) => /^(tcp|ssl|ws|wss|quic):[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id), 'err.listenerId'),
  )
const bind = () => v.pipe(v.string(), v.title('form.field.listenerBind'), v.description('form.hint.listenerBind'), v.check((text) => parseBind(text) !== undefined, 'err.listenerBind'))
const maxConnections = () =>
  v.pipe(v.string(), v.title('form.field.maxConnections'), v.description('form.hint.maxConnections'), v.check((text) => text === 'infinity' || /^[1-9]\d*$/.test(text), 'err.maxConnections'))
const maxConnRate = () =>
  v.pipe(v.string(), v.title('form.field.maxConnRate'), v.description('form.hint.maxConnRate'), v.check((text) => text === 'infinity' || parseRate(text) !== undefined, 'err.rate'))
const mountpoint = () => v.pipe(v.string(), v.title('form.field.mountpoint'), v.description('form.hint.mountpoint'))
const enableAuthn = () => v.pipe(v.picklist(ENABLE_AUTHN, 'err.oneOf'), v.title('form.field.enableAuthn'))
const proxyProtocol = () => v.pipe(v.boolean('err.boolean'), v.title('form.field.proxyProtocol'))
const mqttPath = () => v.pipe(v.string(), v.title('form.field.mqttPath'), v.check((text) => text.startsWith('/'), 'err.mqttPath'))
const pem = (title: string) => v.pipe(v.string(), v.title(title), v.description('form.hint.pem'))
const verify = () => v.pipe(v.picklist(VERIFY, 'err.oneOf'), v.title('form.field.verify'))
const failIfNoPeerCert = () => v.pipe(v.boolean('err.boolean'), v.title('form.field.failIfNoPeerCert'))

/** The fields every form and script may set, each optional: what is left out stays (or takes EMQX's default). */
const settingEntries = (wrap: <T extends v.GenericSchema>(schema: T) => v.OptionalSchema<v.GenericSchema, undefined>) => ({
  max_connections: wrap(maxConnections()),
  max_conn_rate: wrap(maxConnRate()),
  mountpoint: wrap(mountpoint()),
  enable_authn: wrap(enableAuthn()),
  proxy_protocol: wrap(proxyProtocol()),
  nodelay: wrap(v.pipe(v.boolean('err.boolean'), v.title('form.field.nodelay'))),
  backlog: wrap(v.pipe(v.number('err.number'), v.integer('err.integer'), v.minValue(1, 'err.min'), v.title('form.field.backlog'))),
  mqtt_path: wrap(mqttPath()),
  fail_if_no_subprotocol: wrap(v.pipe(v.boolean('err.boolean'), v.title('form.field.failIfNoSubprotocol'))),
  certfile: wrap(pem('form.field.certfile')),
  keyfile: wrap(pem('form.field.keyfile')),
  cacertfile: wrap(pem('form.field.cacertfile')),
  verify: wrap(verify()),
  fail_if_no_peer_cert: wrap(failIfNoPeerCert()),
})

const optional = <T extends v.GenericSchema>(schema: T) => v.optional(schema) as v.OptionalSchema<v.GenericSchema, undefined>
const kept = <T extends v.GenericSchema>(schema: T) => keepsCurrent(schema) as v.OptionalSchema<v.GenericSchema, undefined>

export interface ListenerSettings {
  bind?: string
  max_connections?: string
  max_conn_rate?: string
  mountpoint?: string
  enable_authn?: (typeof ENABLE_AUTHN)[number]
  proxy_protocol?: boolean
  nodelay?: boolean
  backlog?: number
  mqtt_path?: string
  fail_if_no_subprotocol?: boolean
  certfile?: string
  keyfile?: string
  cacertfile?: string
  verify?: (typeof VERIFY)[number]
  fail_if_no_peer_cert?: boolean
}

/** The settings as EMQX's body: numbers and booleans in their own types, websocket and TLS fields in their sections. */
export function listenerBody(settings: ListenerSettings): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  const put = (target: Record<string, unknown>, key: string, value: unknown) => {
    if (value !== undefined) target[key] = value
  }
  put(body, 'bind', settings.bind)
  put(body, 'max_connections', settings.max_connections === undefined || settings.max_connections === 'infinity' ? settings.max_connections : Number(settings.max_connections))
  put(body, 'max_conn_rate', settings.max_conn_rate)
  // An empty argument means 'not given' (keep the current one), so `none` is how a mountpoint is removed.
  put(body, 'mountpoint', settings.mountpoint === 'none' ? '' : settings.mountpoint)
  put(body, 'enable_authn', settings.enable_authn === undefined || settings.enable_authn === 'quick_deny_anonymous' ? settings.enable_authn : settings.enable_authn === 'true')
  put(body, 'proxy_protocol', settings.proxy_protocol)
  const section = (name: string, entries: Record<string, unknown>) => {
    const given = givenArgs(entries)
    if (Object.keys(given).length > 0) body[name] = given
  }
  section('tcp_options', { nodelay: settings.nodelay, backlog: settings.backlog })
  section('websocket', { mqtt_path: settings.mqtt_path, fail_if_no_subprotocol: settings.fail_if_no_subprotocol })
  const { certfile, keyfile, cacertfile, verify, fail_if_no_peer_cert } = settings
  const blankless = (text: string | undefined) => (text === '' ? undefined : text)
  section('ssl_options', { certfile: blankless(certfile), keyfile: blankless(keyfile), cacertfile: blankless(cacertfile), verify, fail_if_no_peer_cert })
  return body
}

export const createListener = defineCommand({
  id: 'listener.create',
  title: 'cmd.listener.create',
  group: 'cmdGroup.listeners',
  changes: ['listeners'],
  args: v.object({
    type: v.pipe(v.picklist(LISTENER_TYPES, 'err.oneOf'), v.title('form.field.listenerType')),
    name: v.pipe(v.string(), v.title('form.field.listenerName'), v.minLength(1, 'err.listenerNameRequired'), v.regex(LISTENER_NAME, 'err.listenerName')),
    bind: bind(),
    ...settingEntries(optional),
  }),
  positional: ['type', 'name', 'bind'],
  secretArgs: ['keyfile'],
  aliases: ['add listener', 'new listener', 'port', '添加监听器', '新建监听器'],
  run: (ctx, { type, name, ...settings }) => ctx.api.listeners.create(`${type}:${name}`, listenerBody(settings as ListenerSettings)),
})

export const updateListener = defineCommand({
  id: 'listener.update',
  title: 'cmd.listener.update',
  group: 'cmdGroup.listeners',
  changes: ['listeners'],
  args: v.object({ id: listenerId(), bind: kept(bind()), ...settingEntries(kept) }),
  positional: ['id'],
  secretArgs: ['keyfile'],
  aliases: ['edit listener', 'change listener', '编辑监听器', '修改监听器'],
  complete: { id: completeListenerId },
  describe: ({ id }) => ({ key: 'cmd.listener.updateDescribe', values: { id } }),
  run: (ctx, { id, ...settings }) => ctx.api.listeners.update(id, listenerBody(settings as ListenerSettings)),
})

/** The commands that take only a listener id. */
function byId(id: string, title: string, describeKey: string, aliases: string[], run: (api: Parameters<typeof createListener.run>[0]['api'], listener: string) => Promise<unknown>, danger: boolean) {
  return defineCommand({
    id,
    title,
    group: 'cmdGroup.listeners',
    changes: ['listeners', 'clients'],
    args: v.object({ id: listenerId() }),
    positional: ['id'],
    ...(danger ? { danger: true } : {}),
    aliases,
    complete: { id: completeListenerId },
    describe: ({ id: listener }) => ({ key: describeKey, values: { id: listener } }),
    run: (ctx, { id: listener }) => run(ctx.api, listener),
  })
}

export const deleteListener = byId('listener.delete', 'cmd.listener.delete', 'cmd.listener.deleteDescribe', ['remove listener', '删除监听器'], (api, id) => api.listeners.remove(id), true)
export const startListener = byId('listener.start', 'cmd.listener.start', 'cmd.listener.startDescribe', ['start listener', '启动监听器'], (api, id) => api.listeners.action(id, 'start'), false)
export const stopListener = byId('listener.stop', 'cmd.listener.stop', 'cmd.listener.stopDescribe', ['stop listener', '停止监听器'], (api, id) => api.listeners.action(id, 'stop'), true)
export const restartListener = byId('listener.restart', 'cmd.listener.restart', 'cmd.listener.restartDescribe', ['restart listener', '重启监听器'], (api, id) => api.listeners.action(id, 'restart'), true)
/** enable and disable change `enable` (EMQX's dashboard switch, a PUT); start and stop are the action endpoints. */
export const enableListener = byId('listener.enable', 'cmd.listener.enable', 'cmd.listener.enableDescribe', ['enable listener', '启用监听器'], (api, id) => api.listeners.update(id, { enable: true }), false)
export const disableListener = byId('listener.disable', 'cmd.listener.disable', 'cmd.listener.disableDescribe', ['disable listener', '禁用监听器'], (api, id) => api.listeners.update(id, { enable: false }), true)

/** The listeners, with their state and connections summed over the cluster. */
export const listListeners = defineRead({
  id: 'listeners.list',
  title: 'cmd.listeners.list',
  group: 'cmdGroup.listeners',
  aliases: ['listeners', '监听器列表'],
  args: v.object({}),
  run: (ctx) => ctx.api.listeners.list(),
  table: (listeners: Listener[]) =>
    tableOf<Listener>(
      [
        ['id', (l) => l.id],
        ['type', (l) => l.type],
        ['bind', (l) => l.bind],
        ['enable', (l) => l.enable],
        ['running', (l) => l.status?.running],
        ['connections', (l) => l.status?.current_connections],
        ['max_connections', (l) => l.status?.max_connections],
      ],
      listeners,
    ),
})

export const listenerCommands = [listListeners, createListener, updateListener, deleteListener, startListener, stopListener, restartListener, enableListener, disableListener]
