// The redis connector and action driver against Debian's real redis-server (tests/support/db-servers.ts):
// command templates rendered from a rule's selected data arrive as one argument each (LRANGE shows
// them), a batch is one pipeline, map_to_redis_hset_args spreads into HSET's arguments, an error
// reply is unrecoverable, and a stopped server is disconnected with the reason and worth retrying.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RedisBackend } from '../server/backends/redis.ts'
import { RecoverableError, UnrecoverableError, type DriverContext } from '../server/integration/driver.ts'
import { redisAction, redisConnector } from '../server/integration/drivers/redis.ts'
import { callRuleFunction } from '../server/rules/functions/index.ts'
import { waitFor } from './support/server.ts'
import { hasDbServer, startRedis, startRedisCluster, startRedisSentinel, type DbServer } from './support/db-servers.ts'
import { renderedBy } from './support/rendered.ts'

// The database drivers never touch the broker.
const ctx = (id: string): DriverContext => ({ node: 'emqx@127.0.0.1', id, broker: {} as DriverContext['broker'] })
const send = { timeoutMs: 3000, signal: new AbortController().signal }
const tpl = (args: string[]) => (id: string) => redisAction.prepare({ command_template: args }, ctx(id))

describe('redis connector configuration', () => {
  it('takes single, sentinel and cluster parameters as EMQX names them, and refuses others', () => {
    expect(() => redisConnector.start({ parameters: { redis_type: 'single' } }, ctx('redis:x'))).toThrow('parameters.server: required field')
    expect(() => redisConnector.start({ parameters: { redis_type: 'master', server: 'h' } }, ctx('redis:x'))).toThrow(/redis_type/)
    expect(() => redisConnector.start({ parameters: { redis_type: 'single', server: 'h' }, ssl: { enable: true, verify: 'sometimes' } }, ctx('redis:x'))).toThrow('ssl.verify must be verify_peer or verify_none')
    expect(() => redisAction.prepare({ command_template: [] }, ctx('redis:x'))).toThrow(/should be a nonempty list of strings/)
    expect(() => redisAction.prepare({ command_template: ['LPUSH', 1] }, ctx('redis:x'))).toThrow(/should be a nonempty list of strings/)
  })
})

describe.skipIf(!hasDbServer('redis'))('redis driver', () => {
  let db: DbServer
  let conn: RedisBackend
  const config = () => ({ parameters: { redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password, database: 1, pool_size: 8 } })
  const lrange = (key: string) => conn.pipeline([['LRANGE', key, '0', '-1']]).then(([reply]) => reply)

  beforeAll(async () => {
    db = await startRedis()
    conn = await redisConnector.start(config(), ctx('redis:r'))
  }, 30_000)
  afterAll(async () => {
    await conn?.close()
    await db?.stop()
  })

  it('renders each argument from the row: spaces stay in one argument, a missing value is `undefined`', async () => {
    expect(await redisConnector.health(conn)).toEqual({ status: 'connected' })
    const prepared = tpl(['RPUSH', 'msgs:${clientid}', '${payload}', 'temp=${payload.temp}', '${nothing}'])('redis:one')
    const row = { clientid: 'c1', payload: '{"temp": 21.5, "note": "a b"}', topic: 't/1' }
    await redisAction.send(conn, prepared, [row], send)
    expect(await lrange('msgs:c1')).toEqual(['{"temp": 21.5, "note": "a b"}', 'temp=21.5', 'undefined'])
    expect(await renderedBy(redisAction, conn, prepared, [row])).toEqual({ command: ['RPUSH', 'msgs:c1', '{"temp": 21.5, "note": "a b"}', 'temp=21.5', 'undefined'], batch: false })
    expect(await renderedBy(redisAction, conn, prepared, [row, { clientid: 'c2', payload: 'p' }])).toEqual({ commands: 'RPUSH msgs:c1 {"temp": 21.5, "note": "a b"} temp=21.5 undefined; RPUSH msgs:c2 p temp=undefined undefined', batch: true })
  })

  it('a batch is one pipeline, in order', async () => {
    const prepared = tpl(['LPUSH', 'MSGS', '${payload}'])('redis:batch')
    await redisAction.send(conn, prepared, ['a', 'b', 'c'].map((payload) => ({ payload })), send)
    expect(await lrange('MSGS')).toEqual(['c', 'b', 'a'])
  })

  it("map_to_redis_hset_args' result spreads into field and value arguments", async () => {
    const fields = callRuleFunction('map_to_redis_hset_args', [{ a: 1, b: 'two' }])
    await redisAction.send(conn, tpl(['HSET', 'h:${clientid}', '${fields}'])('redis:hset'), [{ clientid: 'c2', fields }], send)
    expect(await conn.pipeline([['HGETALL', 'h:c2']])).toEqual([{ a: '1', b: 'two' }])
  })

  it('an error reply is unrecoverable, alone or in a batch', async () => {
    const unknown = tpl(['NOSUCHCMD', '${payload}'])('redis:unknown')
    await expect(redisAction.send(conn, unknown, [{ payload: 'x' }], send)).rejects.toThrow(UnrecoverableError)
    const wrongType = tpl(['LPUSH', 'h:c2', '${payload}'])('redis:wrongtype')
    const error = await redisAction.send(conn, wrongType, [{ payload: 'x' }, { payload: 'y' }], send).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnrecoverableError)
    expect((error as Error).message).toMatch(/WRONGTYPE/)
  })

  it('through a sentinel: the primary it names takes the commands', { timeout: 30_000 }, async () => {
    const sentinel = await startRedisSentinel(db)
    try {
      const parameters = { redis_type: 'sentinel', servers: `${sentinel.host}:${sentinel.port}`, sentinel: 'mymaster', password: db.password, database: 1 }
      const viaSentinel = await redisConnector.start({ parameters }, ctx('redis:sentinel'))
      try {
        expect(await redisConnector.health(viaSentinel)).toEqual({ status: 'connected' })
        await redisAction.send(viaSentinel, tpl(['RPUSH', 'sentinel', '${payload}'])('redis:sentinel'), [{ payload: 'one' }, { payload: 'two' }], send)
        expect(await lrange('sentinel')).toEqual(['one', 'two'])
      } finally {
        await redisConnector.stop(viaSentinel)
      }
    } finally {
      await sentinel.stop()
    }
  })

  it("on a cluster: each command goes to its key's node, a batch spread over several", { timeout: 60_000 }, async () => {
    const cluster = await startRedisCluster()
    try {
      const parameters = { redis_type: 'cluster', servers: cluster.ports.map((port) => `127.0.0.1:${port}`).join(','), password: cluster.password }
      const viaCluster = await redisConnector.start({ parameters }, ctx('redis:cluster'))
      try {
        // Cluster state settles after create: the first sends may be told to retry.
        const rows = ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => ({ key, payload: `v-${key}` }))
        const prepared = tpl(['SET', 'k:${key}', '${payload}'])('redis:cluster')
        await waitFor(() => redisAction.send(viaCluster, prepared, rows, send).then(() => true, () => false), 'the cluster taking writes', 20_000)
        expect(await viaCluster.pipeline(rows.map(({ key }) => ['GET', `k:${key}`]))).toEqual(rows.map(({ payload }) => payload))
      } finally {
        await redisConnector.stop(viaCluster)
      }
    } finally {
      await cluster.stop()
    }
  })

  it('a wrong password fails the start with the reason; a stopped server is disconnected and worth retrying', { timeout: 30_000 }, async () => {
    await expect(redisConnector.start({ parameters: { ...config().parameters, password: 'wrong' } }, ctx('redis:wrong'))).rejects.toThrow(/WRONGPASS|invalid password/)
    await db.stop()
    const health = await redisConnector.health(conn)
    expect(health.status).toBe('disconnected')
    expect(health.reason).toMatch(/ECONNREFUSED|closed/i)
    await expect(redisAction.send(conn, tpl(['LPUSH', 'MSGS', '${payload}'])('redis:down'), [{ payload: 'late' }], { ...send, timeoutMs: 500 })).rejects.toThrow(RecoverableError)
  })
})
