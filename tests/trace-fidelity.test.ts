// The trace writer against EMQX 5.8.9's own words: each line as 5.8 writes it for the same moment
// (the authorization lines with the rich action, the JSON formatter's keys, the drops, the client's
// own debug lines), and the log read answering 503 where 5.8 does. Real server, real mqtt.js
// clients, the file read through `/trace/{name}/log`.
import { truncateSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { traceFileName } from '../server/areas/trace/feature.ts'
import { serverPerSuite } from './support/server.ts'
import { createTrace as createTraceWith, logContaining as logContainingWith, readLog as readLogWith } from './support/trace-log.ts'

const suite = serverPerSuite()

const createTrace = (body: Record<string, unknown>) => createTraceWith(suite.api, body)
const readLog = (name: string, bytes?: number) => readLogWith(suite.api, name, bytes)
const logContaining = (name: string, ...needles: string[]) => logContainingWith(suite.api, name, ...needles)

describe('trace fidelity to 5.8.9', () => {
  it('a chunk past what memory can make into text is 503 Requested chunk size too big, and smaller reads go on', async () => {
    const trace = await createTrace({ name: 'huge', type: 'clientid', clientid: 'nobody-huge' })
    // A file at its 512 MB bound, read at once: more characters than V8 makes one string of. The
    // file is sparse (no disk is written); the read allocates only what the file holds.
    const path = join(suite.t.dataDir, 'trace', traceFileName('huge', Math.floor(Date.parse(trace.start_at) / 1000)))
    truncateSync(path, 512 * 1024 * 1024)
    expect(await suite.api.get('/trace/huge/log?bytes=2147483647')).toEqual({ status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'Requested chunk size too big' } })
    expect(await suite.api.get('/trace/huge/log?bytes=4&position=10')).toEqual({ status: 200, body: { items: '\u0000'.repeat(4), meta: { position: 14, bytes: 4 } } })
    await suite.api.delete('/trace')
  })
})
