// Debian's mosquitto as a remote broker for the MQTT bridge tests: started on a free loopback port in
// a throwaway directory (anonymous clients allowed, no persistence), restartable on the same port,
// stopped afterwards. Without the package a test is skipped, except in CI, where it fails.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, run, stopChild, tempDir, waitForPort } from './db-servers.ts'

const MOSQUITTO = '/usr/sbin/mosquitto'

/** A TLS listener beside the plain one: PEM texts; clients must present a certificate of `ca`. */
export interface MosquittoTls {
  ca: string
  cert: string
  key: string
}

export interface Mosquitto {
  port: number
  url: string
  /** The TLS listener's port, when one was asked for. */
  tlsPort?: number
  /** Stops the broker, keeping its port and directory for `start`. */
  halt(): Promise<void>
  /** Starts it again on the same port. */
  start(): Promise<void>
  stop(): Promise<void>
}

/** Whether mosquitto is installed; in CI a missing one is an error, not a skip. */
export function hasMosquitto(): boolean {
  const installed = existsSync(MOSQUITTO)
  if (!installed && process.env.CI) throw new Error('mosquitto is not installed, and CI must test against it (.ci/run installs it)')
  return installed
}

export async function startMosquitto(options: { tls?: MosquittoTls } = {}): Promise<Mosquitto> {
  const dir = tempDir('mosquitto')
  const port = await freePort()
  const config = join(dir, 'mosquitto.conf')
  // As root, mosquitto would switch to its own user; `user root` keeps it where the directory is ours.
  const asRoot = process.getuid?.() === 0
  const lines = ['per_listener_settings false', 'allow_anonymous true', 'persistence false', 'log_dest stderr', ...(asRoot ? ['user root'] : []), `listener ${port} 127.0.0.1`]
  const tlsPort = options.tls ? await freePort() : undefined
  if (options.tls) {
    for (const [file, pem] of [['ca.crt', options.tls.ca], ['server.crt', options.tls.cert], ['server.key', options.tls.key]]) writeFileSync(join(dir, file), pem)
    lines.push(`listener ${tlsPort} 127.0.0.1`, `cafile ${join(dir, 'ca.crt')}`, `certfile ${join(dir, 'server.crt')}`, `keyfile ${join(dir, 'server.key')}`, 'require_certificate true')
  }
  writeFileSync(config, lines.join('\n') + '\n')
  let server: ReturnType<typeof run> | undefined
  const start = async () => {
    server = run(MOSQUITTO, ['-c', config])
    await waitForPort(port, server.child, 'mosquitto', server.output)
    if (tlsPort) await waitForPort(tlsPort, server.child, 'mosquitto (TLS)', server.output)
  }
  const halt = async () => {
    const child = server?.child
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  await start()
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    ...(tlsPort ? { tlsPort } : {}),
    halt,
    start,
    async stop() {
      await halt()
      await stopChild(server!.child, dir)
    },
  }
}
