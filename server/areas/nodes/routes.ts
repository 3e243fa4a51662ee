// GET /nodes and GET /nodes/{node}: the one node of the embedded broker.
import { readFileSync } from 'node:fs'
import { loadavg, freemem, totalmem } from 'node:os'
import type { FastifyInstance } from 'fastify'
import type { Broker } from '../../broker/broker.ts'
import { ApiError } from '../../http/errors.ts'
import { EMQX_VERSION } from '../../http/version.ts'

export interface NodePaths {
  /** Where the server runs from (EMQX: its install directory). */
  sysPath: string
  /** Where logs go; the embedded server logs to stdout only. */
  logPath: string
}

let maxFds: number | undefined

/** The soft limit on open files, as EMQX reports `max_fds` (0 where the OS does not say). */
function openFileLimit(): number {
  if (maxFds !== undefined) return maxFds
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'))
    const soft = line?.split(/\s{2,}/)[1]
    maxFds = soft && /^\d+$/.test(soft) ? Number(soft) : 0
  } catch {
    maxFds = 0
  }
  return maxFds
}

const round2 = (value: number) => Math.round(value * 100) / 100

export function nodeInfo(broker: Broker, paths: NodePaths) {
  const stats = broker.stats()
  const [load1, load5, load15] = loadavg()
  const total = totalmem()
  return {
    node: broker.node,
    node_status: 'running',
    version: EMQX_VERSION,
    uptime: Date.now() - broker.startedAt,
    connections: stats['connections.count'],
    live_connections: stats['live_connections.count'],
    memory_total: total,
    memory_used: total - freemem(),
    load1: round2(load1),
    load5: round2(load5),
    load15: round2(load15),
    max_fds: openFileLimit(),
    // No Erlang/OTP here: the runtime's own release is the honest equivalent.
    otp_release: `Node.js ${process.version}`,
    sys_path: paths.sysPath,
    log_path: paths.logPath,
    role: 'core',
    edition: 'Opensource',
  }
}

export async function nodeRoutes(app: FastifyInstance, deps: { broker: Broker; paths: NodePaths }): Promise<void> {
  app.get('/nodes', async () => [nodeInfo(deps.broker, deps.paths)])

  app.get<{ Params: { node: string } }>('/nodes/:node', async (request) => {
    if (request.params.node !== deps.broker.node) throw new ApiError(404, 'NOT_FOUND', 'Node not found')
    return nodeInfo(deps.broker, deps.paths)
  })
}
