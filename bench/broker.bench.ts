// The embedded broker and its REST API under load, in-process, with real mqtt.js clients.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import mqtt, { type MqttClient } from 'mqtt'
import type { Broker } from '../server/broker/broker.ts'
import { startServer } from '../server/start.ts'

function connect(url: string, clientId: string): Promise<MqttClient> {
  const client = mqtt.connect(url, { clientId, reconnectPeriod: 0 })
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client))
    client.once('error', reject)
  })
}

/**
 * One publisher bursts `messages` at `subscribers`. A burst beyond the inflight window (32) plus the
 * session queue (1000) is dropped oldest-first, as in EMQX, so the run ends when every delivery has
 * either arrived or been counted as dropped.
 */
async function fanOut(broker: Broker, url: string, qos: 0 | 1, subscribers: number, messages: number) {
  const subs = await Promise.all(Array.from({ length: subscribers }, (_, i) => connect(url, `bench-sub-${qos}-${i}`)))
  let received = 0
  for (const sub of subs) sub.on('message', () => received++)
  await Promise.all(subs.map((sub) => sub.subscribeAsync(`bench/${qos}/#`, { qos })))
  const pub = await connect(url, `bench-pub-${qos}`)
  const droppedBefore = broker.metrics.snapshot()['delivery.dropped']
  const expected = subscribers * messages
  const payload = Buffer.alloc(64, 'x')
  const started = performance.now()
  for (let i = 0; i < messages; i++) pub.publish(`bench/${qos}/${i % 10}`, payload, { qos })
  let dropped = 0
  while (received + dropped < expected) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    dropped = broker.metrics.snapshot()['delivery.dropped'] - droppedBefore
  }
  const seconds = (performance.now() - started) / 1000
  await Promise.all([...subs, pub].map((client) => client.endAsync()))
  return {
    case: `QoS ${qos}: 1 publisher -> ${subscribers} subscribers, ${messages} messages`,
    delivered: received,
    'dropped (queue full)': dropped,
    seconds: +seconds.toFixed(2),
    'deliveries/s': Math.round(received / seconds),
  }
}

async function timed(label: string, runs: number, work: () => Promise<unknown>) {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await work()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return { case: label, runs, 'median ms': +times[Math.floor(runs / 2)].toFixed(1), 'p90 ms': +times[Math.floor(runs * 0.9)].toFixed(1) }
}

export default async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'emqx-console-bench-'))
  const server = await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir })
  const url = `mqtt://127.0.0.1:${server.mqttPort}`
  try {
    const broker = server.broker!
    console.table([await fanOut(broker, url, 0, 10, 20_000), await fanOut(broker, url, 1, 10, 1_000), await fanOut(broker, url, 1, 10, 5_000)])

    const clients = await Promise.all(Array.from({ length: 1000 }, (_, i) => connect(url, `bench-idle-${i}`)))
    const login = await fetch(`${server.url}/api/v5/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'public' }),
    })
    const { token } = (await login.json()) as { token: string }
    const get = (path: string) => fetch(`${server.url}/api/v5${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())
    console.table([
      await timed('GET /clients?limit=100 (1,000 clients)', 50, () => get('/clients?limit=100')),
      await timed('GET /clients?limit=1000 (1,000 clients)', 20, () => get('/clients?limit=1000')),
      await timed('GET /clients?like_clientid=idle-99', 50, () => get('/clients?like_clientid=idle-99')),
      await timed('GET /metrics?aggregate=true', 50, () => get('/metrics?aggregate=true')),
    ])
    await Promise.all(clients.map((client) => client.endAsync()))
  } finally {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
