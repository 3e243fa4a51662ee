// GET /nodes, GET /nodes/{node} and its /stats and /metrics: the one node of the embedded broker.
import { readFileSync } from 'node:fs'
import { loadavg, freemem, totalmem } from 'node:os'
import type { FastifyInstance } from 'fastify'
import { CLUSTER_ONLY_STATS, kmg, nodeNotFound, type NodeInfo } from '../../../contract/nodes.ts'
import type { Broker } from '../../broker/broker.ts'
import { contractError } from '../../http/errors.ts'
import { EMQX_VERSION } from '../../http/version.ts'
import { logDirectory } from '../../log/index.ts'

export interface NodePaths {
  /** Where the server runs from (EMQX: its install directory). */
  sysPath: string
  /** What `log_path` says while no log file is written (EMQX: `log.file.enable is false, not logging to file.`). */
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

/** EMQX cuts load averages to two decimals (emqx_vm:load/1 floors). */
const floor2 = (value: number) => Math.floor(value * 100 + 1e-9) / 100

/**
 * Node has no Erlang processes; the limit that can run out here is open files, so `process_used`
 * counts the runtime's open handles (sockets, servers, files: not timers) against `max_fds`.
 */
function openHandles(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind !== 'Timeout' && kind !== 'Immediate').length
}

export function nodeInfo(broker: Broker, paths: NodePaths): NodeInfo {
  const stats = broker.stats()
  const [load1, load5, load15] = loadavg()
  const total = totalmem()
  const maxFds = openFileLimit()
  return {
    node: broker.node,
    node_status: 'running',
    version: EMQX_VERSION,
    uptime: Date.now() - broker.startedAt,
    connections: stats['connections.count'],
    live_connections: stats['live_connections.count'],
    cluster_sessions: stats['cluster_sessions.count'],
    memory_total: kmg(total),
    memory_used: kmg(total - freemem()),
    load1: floor2(load1),
    load5: floor2(load5),
    load15: floor2(load15),
    max_fds: maxFds,
    process_available: maxFds,
    process_used: openHandles(),
    // No Erlang/OTP here: the runtime's own release is the honest equivalent.
    otp_release: `Node.js ${process.version}`,
    sys_path: paths.sysPath,
    log_path: logDirectory() ?? paths.logPath,
    role: 'core',
    edition: 'Opensource',
  }
}

type NodeParams = { Params: { node: string } }

export async function nodeRoutes(app: FastifyInstance, deps: { broker: Broker; paths: NodePaths }): Promise<void> {
  const { broker } = deps
  const ensureNode = (node: string) => {
    if (node !== broker.node) throw contractError(nodeNotFound(node))
  }

  app.get('/nodes', async () => [nodeInfo(broker, deps.paths)])

  app.get<NodeParams>('/nodes/:node', async (request) => {
    ensureNode(request.params.node)
    return nodeInfo(broker, deps.paths)
  })

  app.get<NodeParams>('/nodes/:node/stats', async (request) => {
    ensureNode(request.params.node)
    const stats: Record<string, number> = { ...broker.stats() }
    for (const key of CLUSTER_ONLY_STATS) delete stats[key]
    return stats
  })

  app.get<NodeParams>('/nodes/:node/metrics', async (request) => {
    ensureNode(request.params.node)
    return broker.metrics.snapshot()
  })
}
