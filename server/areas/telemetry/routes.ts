// GET/PUT /telemetry/status and GET /telemetry/data. EMQX reports usage to EMQ when telemetry is on;
// the embedded server never sends anything, so it says it is off and refuses to turn it on, and
// /telemetry/data answers the report EMQX would make about this node (EMQX answers 404 while off:
// here it is always off, and the data is still worth reading).
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { availableParallelism, release, totalmem, type } from 'node:os'
import type { FastifyInstance } from 'fastify'
import { TELEMETRY_ERRORS, TelemetryStatusBody, type TelemetryData } from '../../../contract/telemetry.ts'
import type { Broker } from '../../broker/broker.ts'
import type { FeatureConfigRepository } from '../../store/feature-config.ts'
import type { AutoSubscribeFeature } from '../auto-subscribe/feature.ts'
import type { DelayedFeature } from '../delayed/feature.ts'
import type { TopicRewriteFeature } from '../topic-rewrite/feature.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { EMQX_VERSION } from '../../http/version.ts'

/** NAME and VERSION (else VERSION_ID, else PRETTY_NAME) of /etc/os-release, as EMQX reads them. */
function osInfo(): { os_name: string; os_version: string } {
  try {
    const fields = Object.fromEntries(
      readFileSync('/etc/os-release', 'utf8')
        .split('\n')
        .map((line) => /^(\w+)="?([^"]*)"?$/.exec(line.trim()))
        .filter((match) => match !== null)
        .map((match) => [match[1], match[2]]),
    )
    return { os_name: fields.NAME ?? type(), os_version: fields.VERSION ?? fields.VERSION_ID ?? fields.PRETTY_NAME ?? release() }
  } catch {
    return { os_name: type(), os_version: release() }
  }
}

/** The node's and the cluster's ids, made once and kept with the data (EMQX keeps them in its data directory). */
function uuids(configs: FeatureConfigRepository): { node: string; cluster: string } {
  const stored = configs.get<{ node: string; cluster: string }>('telemetry_uuids')
  if (stored) return stored
  const made = { node: randomUUID().toUpperCase(), cluster: randomUUID().toUpperCase() }
  configs.set('telemetry_uuids', made)
  return made
}

/** What the report counts of the advanced MQTT features. */
export interface TelemetrySources {
  rewrite: TopicRewriteFeature
  delayed: DelayedFeature
  autoSubscribe: AutoSubscribeFeature
}

export async function telemetryRoutes(app: FastifyInstance, deps: { broker: Broker; configs: FeatureConfigRepository; feature: TelemetrySources }): Promise<void> {
  const { broker, configs, feature: features } = deps
  // Message rates between two reads of the data, as EMQX works them out between two reports.
  let previous = { at: broker.startedAt, sent: 0, received: 0 }

  app.get('/telemetry/status', async () => ({ enable: false }))

  app.put('/telemetry/status', async (request) => {
    const { enable } = parseInput(TelemetryStatusBody, request.body ?? {}, 'body')
    throw contractError(enable ? TELEMETRY_ERRORS.cannotEnable : TELEMETRY_ERRORS.alreadyDisabled)
  })

  app.get('/telemetry/data', async (): Promise<TelemetryData> => {
    const stats = broker.stats()
    const metrics = broker.metrics.snapshot()
    const now = Date.now()
    const seconds = Math.max((now - previous.at) / 1000, 0.001)
    const rates = {
      messages_sent_rate: (metrics['messages.sent'] - previous.sent) / seconds,
      messages_received_rate: (metrics['messages.received'] - previous.received) / seconds,
    }
    previous = { at: now, sent: metrics['messages.sent'], received: metrics['messages.received'] }
    const ids = uuids(configs)
    return {
      emqx_version: EMQX_VERSION,
      license: { edition: 'opensource' },
      ...osInfo(),
      // No Erlang/OTP here: the runtime's own version, as /nodes reports it.
      otp_version: `Node.js ${process.version}`,
      up_time: now - broker.startedAt,
      uuid: ids.node,
      cluster_uuid: ids.cluster,
      nodes_uuid: [],
      active_plugins: [],
      num_clients: stats['live_connections.count'],
      num_cluster_sessions: stats['cluster_sessions.count'],
      messages_received: metrics['messages.received'],
      messages_sent: metrics['messages.sent'],
      build_info: {},
      vm_specs: { num_cpus: availableParallelism(), total_memory: totalmem() },
      mqtt_runtime_insights: { ...rates, num_topics: stats['topics.count'] },
      advanced_mqtt_features: {
        topic_rewrite: features.rewrite.config.length,
        delayed: features.delayed.count(),
        retained: stats['retained.count'],
        auto_subscribe: features.autoSubscribe.config.length,
      },
      // Nothing of these is in the embedded broker yet.
      authn_authz: { authn: [], authn_listener: [], authz: [] },
      gateway: {},
      rule_engine: { num_rules: 0 },
      bridge: { num_data_bridges: 0, data_bridge: {} },
      exhook: { num_servers: 0, servers: [] },
    }
  })
}
