// The influxdb connector and action driver: `write_syntax` parsed and typed as EMQX does, and
// points written to Debian's real InfluxDB 1.x (tests/support/db-servers.ts) and read back with its
// query API: one row, a batch, precisions; a write InfluxDB refuses or a bad password is
// unrecoverable, and a stopped server is disconnected with the reason and worth retrying.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RecoverableError, UnrecoverableError, type DriverContext } from '../server/integration/driver.ts'
import { influxdbAction, influxdbConnector, influxdbOrigin, writeRequest, type InfluxdbConnection } from '../server/integration/drivers/influxdb.ts'
import { parseWriteSyntax } from '../server/integration/drivers/influxdb-line.ts'
import { compilePoint, renderPoint } from '../server/integration/drivers/influxdb-points.ts'
import { hasDbServer, startInfluxdb, type DbServer } from './support/db-servers.ts'

// The database drivers never touch the broker.
const ctx = (id: string): DriverContext => ({ node: 'emqx@127.0.0.1', id, broker: {} as DriverContext['broker'] })
const send = { timeoutMs: 5000, signal: new AbortController().signal }

describe('write_syntax', () => {
  it("parses EMQX's example, escapes and quoted fields; refuses what EMQX refuses", () => {
    expect(parseWriteSyntax('${topic},clientid=${clientid} payload=${payload},${clientid}_int_value=${payload.int_key}i,bool=${payload.bool}')).toEqual([
      {
        measurement: '${topic}',
        tags: [['clientid', '${clientid}']],
        fields: [
          ['payload', '${payload}'],
          ['${clientid}_int_value', '${payload.int_key}i'],
          ['bool', '${payload.bool}'],
        ],
        timestamp: undefined,
      },
    ])
    expect(parseWriteSyntax('my\\ m,t\\=1=a\\,b s="say \\"hi\\"",n=1 ${timestamp}\n  other f=2i 17')).toEqual([
      { measurement: 'my m', tags: [['t=1', 'a,b']], fields: [['s', { quoted: 'say "hi"' }], ['n', '1']], timestamp: '${timestamp}' },
      { measurement: 'other', tags: [], fields: [['f', '2i']], timestamp: '17' },
    ])
    for (const bad of ['', 'm', 'm,t=1', ',t=1 f=1', 'm f=']) expect(() => parseWriteSyntax(bad)).toThrow(/Unable to parse InfluxDB line protocol/)
  })

  it('types values as EMQX does and leaves out what has no value', () => {
    const point = (syntax: string, precision: 'ns' | 'us' | 'ms' | 's' = 'ms') => compilePoint(parseWriteSyntax(syntax)[0], precision)
    const row = { topic: 't/1', clientid: 'c 1', timestamp: 1_700_000_000_123, payload: JSON.stringify({ n: 7, f: 1.5, s: 'x"y', b: true }) }
    expect(renderPoint(point('${topic},c=${clientid} a=12i,b=1.5,c=abc,d=t,e=${payload.n},f=${payload.n}i,g=${payload.s},h=${payload.b},i="${payload.n}",j=${nothing}'), row, 'ms')).toEqual({
      line: 't/1,c=c\\ 1 a=12i,b=1.5,c="abc",d=t,e=7,f=7i,g="x\\"y",h=true,i="7" 1700000000123',
    })
    expect(renderPoint(point('m f=1'), row, 'ns')).toEqual({ line: 'm f=1 1700000000123000000' })
    expect(renderPoint(point('m f=1', 's'), row, 's')).toEqual({ line: 'm f=1 1700000000' })
    // Any timestamp template but `${timestamp}` is taken as already in the precision.
    expect(renderPoint(point('m f=1 ${payload.n}', 's'), row, 's')).toEqual({ line: 'm f=1 7' })
    expect(renderPoint(point('m f=1 ${clientid}'), row, 'ms')).toEqual({ error: 'non_integer_timestamp: c 1' })
    expect(renderPoint(point('m f=${nothing}'), row, 'ms')).toEqual({ error: 'no_fields' })
  })

  it('v1 and v2 writes go where each API takes them', () => {
    expect(influxdbOrigin('http://db.local:9999/')).toBe('http://db.local:9999')
    expect(influxdbOrigin('127.0.0.1')).toBe('http://127.0.0.1:8086')
    expect(writeRequest({ influxdb_type: 'influxdb_api_v1', database: 'mqtt', username: 'u', password: 'p w' }, 'us')).toEqual({ path: '/write?db=mqtt&precision=u&u=u&p=p+w', headers: {} })
    expect(writeRequest({ influxdb_type: 'influxdb_api_v2', bucket: 'b', org: 'o', token: 't' }, 'ns')).toEqual({ path: '/api/v2/write?bucket=b&org=o&precision=ns', headers: { authorization: 'Token t' } })
    expect(() => influxdbAction.prepare({ write_syntax: '' }, ctx('influxdb:x'))).toThrow("the value of the field 'write_syntax' cannot be empty")
    expect(() => influxdbAction.prepare({ write_syntax: 'm f=1', precision: 'm' }, ctx('influxdb:x'))).toThrow(/precision/)
  })
})

describe.skipIf(!hasDbServer('influxdb'))('influxdb driver', () => {
  let db: DbServer
  let conn: InfluxdbConnection
  const config = (password = db.password) => ({
    server: `${db.host}:${db.port}`,
    pool_size: 2,
    parameters: { influxdb_type: 'influxdb_api_v1', database: db.database, username: db.user, password },
  })
  async function select(q: string): Promise<unknown[][]> {
    const params = new URLSearchParams({ db: db.database, q, epoch: 'ns', u: db.user, p: db.password })
    const answer = (await (await fetch(`http://${db.host}:${db.port}/query?${params}`)).json()) as { results: Array<{ series?: Array<{ values: unknown[][] }> }> }
    return answer.results[0].series?.[0].values ?? []
  }

  beforeAll(async () => {
    db = await startInfluxdb()
    conn = await influxdbConnector.start(config(), ctx('influxdb:i'))
  }, 60_000)
  afterAll(async () => {
    await conn?.pool.destroy()
    await db?.stop()
  })

  it('writes a row and a batch in one request; the points read back typed', async () => {
    expect(await influxdbConnector.health(conn)).toEqual({ status: 'connected' })
    const prepared = influxdbAction.prepare({ write_syntax: 'temps,clientid=${clientid} value=${payload.temp},n=${payload.n}i,note="${payload.note}"' }, ctx('influxdb:temps'))
    expect(await influxdbAction.health!(conn, prepared)).toEqual({ status: 'connected' })
    const row = (n: number) => ({ clientid: `c${n}`, timestamp: 1_700_000_000_000 + n, payload: JSON.stringify({ temp: 20 + n / 2, n, note: `a, b=${n}` }) })
    await influxdbAction.send(conn, prepared, [row(1)], send)
    await influxdbAction.send(conn, prepared, [row(2), row(3), row(4)], send)
    expect(await select('SELECT value, n, note, clientid FROM temps')).toEqual([
      [1_700_000_000_001_000_000, 20.5, 1, 'a, b=1', 'c1'],
      [1_700_000_000_002_000_000, 21, 2, 'a, b=2', 'c2'],
      [1_700_000_000_003_000_000, 21.5, 3, 'a, b=3', 'c3'],
      [1_700_000_000_004_000_000, 22, 4, 'a, b=4', 'c4'],
    ])
  })

  it('writes in every precision', async () => {
    for (const precision of ['ns', 'us', 'ms', 's']) {
      const prepared = influxdbAction.prepare({ write_syntax: `p_${precision} f=1i`, precision }, ctx(`influxdb:${precision}`))
      await influxdbAction.send(conn, prepared, [{ timestamp: 1_700_000_000_123 }], send)
      expect((await select(`SELECT f FROM p_${precision}`))[0][0]).toBe(precision === 's' ? 1_700_000_000_000_000_000 : 1_700_000_000_123_000_000)
    }
  })

  it('a point InfluxDB refuses, or a row that cannot be rendered, is unrecoverable', async () => {
    // Field types are kept per shard: the same week as the numbers written before.
    const asString = influxdbAction.prepare({ write_syntax: 'temps value="${payload}"' }, ctx('influxdb:conflict'))
    const error = await influxdbAction.send(conn, asString, [{ payload: 'hot', timestamp: 1_700_000_000_005 }], send).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnrecoverableError)
    expect((error as Error).message).toMatch(/^400 .*field type conflict/)
    const noFields = influxdbAction.prepare({ write_syntax: 'temps value=${nothing}' }, ctx('influxdb:nofields'))
    await expect(influxdbAction.send(conn, noFields, [{ timestamp: 1 }, { timestamp: 2 }], send)).rejects.toThrow('points_trans_failed: no_fields')
  })

  it('a wrong password fails the start and the writes; a stopped server is disconnected and worth retrying', { timeout: 30_000 }, async () => {
    await expect(influxdbConnector.start(config('wrong'), ctx('influxdb:wrong'))).rejects.toThrow('connect_ok_but_auth_failed')
    const prepared = influxdbAction.prepare({ write_syntax: 'm f=1' }, ctx('influxdb:down'))
    const wrong: InfluxdbConnection = { ...conn, api: { influxdb_type: 'influxdb_api_v1', database: db.database, username: db.user, password: 'wrong' } }
    await expect(influxdbAction.send(wrong, prepared, [{ timestamp: 1 }], send)).rejects.toThrow('authorization failure')
    await db.stop()
    const health = await influxdbConnector.health(conn)
    expect(health.status).toBe('disconnected')
    expect(health.reason).toMatch(/ECONNREFUSED|other side closed|fetch failed/)
    expect((await influxdbAction.health!(conn, prepared)).status).toBe('connecting')
    await expect(influxdbAction.send(conn, prepared, [{ timestamp: 1 }], send)).rejects.toThrow(RecoverableError)
  })
})

/** InfluxDB 1.x has no API v2: a node:http server answering as v2 does records what it is sent. */
describe('influxdb API v2 on the wire', () => {
  it('sends the token, bucket and org; a 5xx is unrecoverable as in EMQX, no answer in time is retried', async () => {
    const seen: Array<{ method?: string; url?: string; authorization?: string; body: string }> = []
    let writeStatus = 204
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body })
        if (req.url?.startsWith('/api/v2/write') && writeStatus === 0) return // never answers
        const status = req.url === '/ping' ? 204 : req.url?.startsWith('/api/v2/write') ? writeStatus : 200
        res.writeHead(status).end(status >= 400 ? '{"code":"internal error","message":"down"}' : '')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const conn = await influxdbConnector.start({ server: `http://127.0.0.1:${port}/`, parameters: { influxdb_type: 'influxdb_api_v2', bucket: 'b 1', org: 'o', token: 'secret' } }, ctx('influxdb:v2'))
    try {
      expect(seen.map(({ method, url, authorization }) => [method, url, authorization])).toEqual([
        ['GET', '/ping', undefined],
        ['GET', '/api/v2/buckets?org=o&name=b+1', 'Token secret'],
      ])
      const prepared = influxdbAction.prepare({ write_syntax: 'm,c=${clientid} v=${payload}', precision: 's' }, ctx('influxdb:v2'))
      await influxdbAction.send(conn, prepared, [{ clientid: 'a', payload: 1, timestamp: 1_700_000_000_999 }], send)
      expect(seen.at(-1)).toEqual({ method: 'POST', url: '/api/v2/write?bucket=b+1&org=o&precision=s', authorization: 'Token secret', body: 'm,c=a v=1 1700000000' })
      writeStatus = 503
      await expect(influxdbAction.send(conn, prepared, [{ clientid: 'a', payload: 1 }], send)).rejects.toThrow(UnrecoverableError)
      writeStatus = 0
      await expect(influxdbAction.send(conn, prepared, [{ clientid: 'a', payload: 1 }], { ...send, timeoutMs: 300 })).rejects.toThrow(RecoverableError)
    } finally {
      await conn.pool.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
