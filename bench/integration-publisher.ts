// The publisher of bench/integration.bench.ts, in a process of its own: CLIENTS mqtt.js clients on
// the broker's port (argv), publishing `{"seq":n,"data":…}` messages of about `bytes` each in turn,
// at most WINDOW unacknowledged (written, at QoS 0), and answering with the seconds the job took.
// Many clients, as a real load has: an action in sync mode holds each publishing client until it
// answers (EMQX's sync query), so one client would measure one row per round trip or batch_time.
import mqtt from 'mqtt'

interface PublishJob {
  type: 'publish'
  topic: string
  from: number
  count: number
  qos: 0 | 1
  bytes: number
}

const WINDOW = 1000
const CLIENTS = 100
const port = Number(process.argv[2])
const clients = await Promise.all(
  Array.from({ length: CLIENTS }, (_, i) => mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: `bench-pub-${process.pid}-${i}`, reconnectPeriod: 0 })),
)

async function publish({ topic, from, count, qos, bytes }: PublishJob): Promise<number> {
  const pad = 'x'.repeat(Math.max(0, bytes - 30))
  const started = performance.now()
  let inflight = 0
  let wake: (() => void) | undefined
  const settled = () => {
    inflight--
    if (wake && inflight < WINDOW / 2) (wake(), (wake = undefined))
  }
  for (let seq = from; seq < from + count; seq++) {
    if (inflight >= WINDOW) await new Promise<void>((resolve) => (wake = resolve))
    inflight++
    clients[seq % CLIENTS].publish(topic, `{"seq":${seq},"data":"${pad}"}`, { qos }, settled)
  }
  while (inflight > 0) await new Promise<void>((resolve) => (wake = resolve))
  return (performance.now() - started) / 1000
}

process.on('message', async (job: PublishJob | { type: 'end' }) => {
  if (job.type === 'publish') process.send?.({ type: 'published', seconds: await publish(job) })
  else {
    await Promise.all(clients.map((client) => client.endAsync()))
    process.disconnect?.()
  }
})
process.send?.({ type: 'ready' })
