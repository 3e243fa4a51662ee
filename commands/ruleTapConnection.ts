// Where rule.tap listens: one private MQTT connection of the test client's engine (src/testclient),
// set up like the browser's default test connection (its host, port and credentials), or in the
// CLI on the running WebSocket listener of the host the API was reached at. Works against EMQX too:
// everything it learns comes from EMQX's own API.
import { parseBind } from '../contract/listeners.ts'
import { TestConnection } from '../src/testclient/connection.ts'
import { defaultSettings, type ConnectionSettings } from '../src/testclient/connectionSettings.ts'
import { DEFAULT_CONNECTION } from '../src/testclient/manager.ts'
import { MessageStore, type TestMessage } from '../src/testclient/messages/store.ts'
import { CommandError, type CommandContext } from './define.ts'

export interface TapCredentials {
  username?: string | undefined
  password?: string | undefined
}

/** A connection only rule.tap uses: a fresh session that never reconnects and leaves no will. */
function privateSettings(base: ConnectionSettings, clientId: string, credentials: TapCredentials): ConnectionSettings {
  return {
    ...base,
    name: clientId,
    clientId,
    clean: true,
    sessionExpiryInterval: 0,
    reconnect: false,
    protocolVersion: 5,
    will: { ...base.will, enabled: false },
    ...(credentials.username !== undefined ? { username: credentials.username } : {}),
    ...(credentials.password !== undefined ? { password: credentials.password } : {}),
  }
}

/** The WebSocket listener the CLI reaches: an enabled, running `ws` listener, else a `wss` one. */
async function listenerSettings(ctx: CommandContext, host: string): Promise<ConnectionSettings> {
  const listeners = await ctx.api.listeners.list()
  const usable = (type: string) => listeners.find((l) => l.type === type && l.enable && l.status?.running !== false)
  const chosen = usable('ws') ?? usable('wss')
  const bind = chosen?.bind !== undefined ? parseBind(chosen.bind) : undefined
  if (!chosen || !bind) throw new CommandError({ key: 'ruleTap.err.noWebSocket' })
  const detail = await ctx.api.listeners.get(chosen.id).catch(() => undefined)
  const path = (detail as { websocket?: { mqtt_path?: string } } | undefined)?.websocket?.mqtt_path ?? '/mqtt'
  const tls = chosen.type === 'wss'
  return { ...defaultSettings('tap', { host, tls }), port: bind.port, path }
}

async function baseSettings(ctx: CommandContext): Promise<ConnectionSettings> {
  const testClient = ctx.ui?.testClient
  if (testClient) {
    const manager = await testClient()
    const base = manager.get(DEFAULT_CONNECTION) ?? manager.list()[0]
    if (base) return base.snapshot().settings
  }
  const host = ctx.live?.brokerHost
  if (!host) throw new CommandError({ key: 'ruleTap.err.noBroker' })
  return listenerSettings(ctx, host)
}

export interface TapSubscription {
  /** Disconnects; safe to call more than once. */
  close(): Promise<void>
}

/**
 * Connects as `clientId` and subscribes to `topic` (resolving once the broker granted it); every
 * message received goes to `onMessage` as soon as it arrives (not per animation frame: a hidden tab must not hold a tap back).
 */
export async function openTapSubscription(
  ctx: CommandContext,
  clientId: string,
  topic: string,
  credentials: TapCredentials,
  onMessage: (message: TestMessage) => void,
  qos: 0 | 1 | 2 = 0,
): Promise<TapSubscription> {
  const settings = privateSettings(await baseSettings(ctx), clientId, credentials)
  const store = new MessageStore(64, (flush) => queueMicrotask(flush))
  const connection = new TestConnection(settings, store)
  const unsubscribe = store.subscribe((batch) => {
    for (const message of batch) if (message.direction === 'in') onMessage(message)
  })
  const close = async () => {
    unsubscribe()
    await connection.disconnect().catch(() => connection.dispose())
    connection.dispose()
  }
  try {
    await connection.connect()
    await connection.subscribeTopic({ topic, qos })
  } catch (error) {
    await close()
    throw error
  }
  return { close }
}
