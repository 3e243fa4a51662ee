// What MQTT access control costs the embedded broker, set up through EMQX 5.8's REST API as an
// operator would: connects per second with no authentication, with the built-in database hashing
// with pbkdf2 and with bcrypt, and with the HTTP backend (a local HTTP server in this process);
// then QoS 0 publishes per second (100 publishers to 1 subscriber) with authorization answering
// no_match, with 100 built-in rules and the cache, and with them and no cache. The broker runs in a
// process of its own, the load in another. Prints tables; asserts nothing.
//   BENCH_SECONDS=<n>   measured seconds per case (default 4)
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { load, startNodeBroker, type Target } from './broker-targets.ts'
import type { LoadResult } from './mqtt-load.ts'
import { restOf, type Rest } from './rest.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const PARALLEL_CONNECTS = 50
const USER = 'bench-user'
const PASSWORD = 'bench-password-1'
const BUILT_IN = 'password_based:built_in_database'

/** An HTTP authentication service that allows the bench user, as EMQX's HTTP backend expects. */
async function httpAuthService(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const { username, password } = JSON.parse(body || '{}') as { username?: string; password?: string }
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ result: username === USER && password === PASSWORD ? 'allow' : 'deny' }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth` }
}

interface ConnectCase {
  label: string
  /** Sets the chain up; undefined: no authenticator at all. */
  setup?: (rest: Rest, httpUrl: string) => Promise<string>
}

async function builtIn(rest: Rest, algorithm: object): Promise<string> {
  await rest('POST', '/authentication', { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'username', password_hash_algorithm: algorithm })
  await rest('POST', `/authentication/${BUILT_IN}/users`, { user_id: USER, password: PASSWORD })
  return BUILT_IN
}

const CONNECT_CASES: ConnectCase[] = [
  { label: 'no authentication (anonymous)' },
  { label: 'built-in database, pbkdf2 sha256 4,096 iterations', setup: (rest) => builtIn(rest, { name: 'pbkdf2', mac_fun: 'sha256', iterations: 4096 }) },
  { label: 'built-in database, bcrypt 10 rounds', setup: (rest) => builtIn(rest, { name: 'bcrypt', salt_rounds: 10 }) },
  { label: 'built-in database, sha256 with salt', setup: (rest) => builtIn(rest, { name: 'sha256', salt_position: 'prefix' }) },
  {
    label: 'HTTP backend (POST, a local service)',
    setup: async (rest, url) => {
      await rest('POST', '/authentication', {
        mechanism: 'password_based',
        backend: 'http',
        method: 'post',
        url,
        headers: { 'content-type': 'application/json' },
        body: { username: '${username}', password: '${password}' },
      })
      return 'password_based:http'
    },
  },
]

interface PublishCase {
  label: string
  cache: boolean
  rules: number
}

const PUBLISH_CASES: PublishCase[] = [
  { label: 'authorization: no source (no_match allow)', cache: false, rules: 0 },
  { label: 'built-in database, 100 rules, cache on', cache: true, rules: 100 },
  { label: 'built-in database, 100 rules, no cache', cache: false, rules: 100 },
]

/** 99 rules that match nothing the bench sends, then the one that allows it: every check walks them all. */
function rules(count: number) {
  return [
    ...Array.from({ length: count - 1 }, (_, i) => ({ permission: 'deny', action: 'all', topic: `elsewhere/${i}/#` })),
    { permission: 'allow', action: 'all', topic: 'bench/#' },
  ]
}

const row = (label: string, result: LoadResult & { brokerCpu: number }, unit: string) => ({
  case: label,
  [unit]: result.perSecond,
  ...(result.refused !== undefined ? { refused: result.refused } : {}),
  'CPU broker / load': `${result.brokerCpu} / ${result.loadCpu}`,
})

export default async function run(): Promise<void> {
  const target = await startNodeBroker('embedded')
  const auth = await httpAuthService()
  try {
    const rest = await restOf(target)
    const answers = (path: string) =>
      rest('GET', path).then(
        () => true,
        (error: Error) => (console.log(`the server does not answer ${path}: its cases are skipped (${error.message})`), false),
      )
    if (await answers('/authentication')) await connectTable(target, rest, auth.url)
    if (await answers('/authorization/settings')) await publishTable(target, rest)
  } finally {
    auth.server.close()
    await target.stop()
  }
}

async function connectTable(target: Target, rest: Rest, httpUrl: string): Promise<void> {
  const connects: Record<string, string | number>[] = []
  for (const { label, setup } of CONNECT_CASES) {
    const id = await setup?.(rest, httpUrl)
    const result = await load(target, { kind: 'connect-rate', port: target.port, seconds: SECONDS, parallel: PARALLEL_CONNECTS, ...(id ? { username: USER, password: PASSWORD } : {}) })
    connects.push(row(label, result, 'connects/s'))
    if (id) await rest('DELETE', `/authentication/${encodeURIComponent(id)}`)
  }
  console.log(`MQTT 3.1.1 connect + CONNACK + DISCONNECT, ${PARALLEL_CONNECTS} at a time, ${SECONDS} s per case; refused: CONNACKs other than success (should be 0)`)
  console.table(connects)
}

async function publishTable(target: Target, rest: Rest): Promise<void> {
  const publishes: Record<string, string | number>[] = []
  for (const { label, cache, rules: count } of PUBLISH_CASES) {
    await rest('PUT', '/authorization/settings', { no_match: 'allow', deny_action: 'ignore', cache: { enable: cache, max_size: 32, ttl: '1m' } })
    if (count > 0) {
      await rest('POST', '/authorization/sources', { type: 'built_in_database', enable: true })
      await rest('POST', '/authorization/sources/built_in_database/rules/all', { rules: rules(count) })
    }
    const result = await load(target, { kind: 'fan-in', port: target.port, qos: 0, publishers: 100, window: 1000, seconds: SECONDS })
    publishes.push(row(label, result, 'msg/s'))
    if (count > 0) await rest('DELETE', '/authorization/sources/built_in_database')
  }
  console.log(`QoS 0 fan-in, 100 publishers -> 1 subscriber, ${SECONDS} s per case: every publish (and the subscription) is authorized`)
  console.table(publishes)
}
