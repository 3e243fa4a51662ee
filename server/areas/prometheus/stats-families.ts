// GET /prometheus/stats: the families of emqx_prometheus.erl (5.8.9) in its order, filled from the
// broker's stats and metrics, the VM figures and the cluster (one running node). Groups are also
// the keys of the JSON answer. Not here, as the embedded broker has no such thing: overload
// protection (off by default in EMQX too), the Mria/cluster-RPC families, durable storage.
import type { PrometheusMode } from '../../../contract/prometheus.ts'
import type { MetricName, StatName } from '../../../contract/stats-metrics.ts'
import type { Broker } from '../../broker/broker.ts'
import type { VmStats, VmStatName } from '../../metrics/vm-stats.ts'
import { nodeLabel, objectOrList, single, toText, zipSamples, type Family } from './exposition.ts'

/** [family, EMQX stat] of stats_metric_meta/0 and stats_metric_cluster_consistented_meta/0. */
const STATS: ReadonlyArray<readonly [string, string]> = [
  ['emqx_connections_count', 'connections.count'],
  ['emqx_connections_max', 'connections.max'],
  ['emqx_live_connections_count', 'live_connections.count'],
  ['emqx_live_connections_max', 'live_connections.max'],
  ['emqx_sessions_count', 'sessions.count'],
  ['emqx_sessions_max', 'sessions.max'],
  ['emqx_channels_count', 'channels.count'],
  ['emqx_channels_max', 'channels.max'],
  ['emqx_suboptions_count', 'suboptions.count'],
  ['emqx_suboptions_max', 'suboptions.max'],
  ['emqx_subscribers_count', 'subscribers.count'],
  ['emqx_subscribers_max', 'subscribers.max'],
  ['emqx_subscriptions_count', 'subscriptions.count'],
  ['emqx_subscriptions_max', 'subscriptions.max'],
  ['emqx_durable_subscriptions_count', 'durable_subscriptions.count'],
  ['emqx_durable_subscriptions_max', 'durable_subscriptions.max'],
  ['emqx_delayed_count', 'delayed.count'],
  ['emqx_delayed_max', 'delayed.max'],
]
const CLUSTER_STATS: ReadonlyArray<readonly [string, string]> = [
  ['emqx_cluster_sessions_count', 'cluster_sessions.count'],
  ['emqx_cluster_sessions_max', 'cluster_sessions.max'],
  ['emqx_topics_max', 'topics.max'],
  ['emqx_topics_count', 'topics.count'],
  ['emqx_retained_count', 'retained.count'],
  ['emqx_retained_max', 'retained.max'],
  ['emqx_subscriptions_shared_count', 'subscriptions.shared.count'],
  ['emqx_subscriptions_shared_max', 'subscriptions.shared.max'],
]
const VM: ReadonlyArray<readonly [string, VmStatName | undefined]> = [
  ['emqx_vm_cpu_use', 'cpu_use'],
  ['emqx_vm_cpu_idle', 'cpu_idle'],
  ['emqx_vm_run_queue', 'run_queue'],
  // EMQX 5.8.9's vm_stats/0 no longer reports process_total_messages, so this family reads 0 there too.
  ['emqx_vm_process_messages_in_queues', undefined],
  ['emqx_vm_total_memory', 'total_memory'],
  ['emqx_vm_used_memory', 'used_memory'],
  ['emqx_vm_mnesia_tm_mailbox_size', 'mnesia_tm_mailbox_size'],
  ['emqx_vm_broker_pool_max_mailbox_size', 'broker_pool_max_mailbox_size'],
]

/** EMQX metric key -> family name where it is not the key with `_` for `.` and an `emqx_` prefix. */
const RENAMED: Readonly<Record<string, string>> = {
  'packets.connect.received': 'emqx_packets_connect',
  'messages.dropped.await_pubrel_timeout': 'emqx_messages_dropped_expired',
  'authorization.matched.allow': 'emqx_authorization_matched_allow',
  'authorization.matched.deny': 'emqx_authorization_matched_deny',
}
export const familyOf = (key: string): string => RENAMED[key] ?? `emqx_${key.replace(/\./g, '_')}`

/** The counter groups of emqx_prometheus.erl, by the JSON key each is answered under, in its order. */
export const COUNTER_GROUPS: Readonly<Record<string, readonly MetricName[]>> = {
  packets: [
    'bytes.received', 'bytes.sent', 'packets.received', 'packets.sent', 'packets.connect.received', 'packets.connack.sent',
    'packets.connack.error', 'packets.connack.auth_error', 'packets.subscribe.received', 'packets.subscribe.auth_error',
    'packets.subscribe.error', 'packets.suback.sent', 'packets.unsubscribe.received', 'packets.unsubscribe.error',
    'packets.unsuback.sent', 'packets.publish.received', 'packets.publish.sent', 'packets.publish.inuse', 'packets.publish.error',
    'packets.publish.auth_error', 'packets.publish.dropped', 'packets.puback.received', 'packets.puback.sent', 'packets.puback.inuse',
    'packets.puback.missed', 'packets.pubrec.received', 'packets.pubrec.sent', 'packets.pubrec.inuse', 'packets.pubrec.missed',
    'packets.pubrel.received', 'packets.pubrel.sent', 'packets.pubrel.missed', 'packets.pubcomp.received', 'packets.pubcomp.sent',
    'packets.pubcomp.inuse', 'packets.pubcomp.missed', 'packets.pingreq.received', 'packets.pingresp.sent',
    'packets.disconnect.received', 'packets.disconnect.sent', 'packets.auth.received', 'packets.auth.sent',
  ],
  messages: [
    'messages.received', 'messages.sent', 'messages.qos0.received', 'messages.qos0.sent', 'messages.qos1.received',
    'messages.qos1.sent', 'messages.qos2.received', 'messages.qos2.sent', 'messages.publish', 'messages.dropped',
    'messages.dropped.await_pubrel_timeout', 'messages.dropped.no_subscribers', 'messages.forward', 'messages.retained',
    'messages.delayed', 'messages.delivered', 'messages.acked',
  ],
  delivery: [
    'delivery.dropped', 'delivery.dropped.no_local', 'delivery.dropped.too_large', 'delivery.dropped.qos0_msg',
    'delivery.dropped.queue_full', 'delivery.dropped.expired',
  ],
  client: [
    'client.connect', 'client.connack', 'client.connected', 'client.authenticate', 'client.auth.anonymous', 'client.authorize',
    'client.subscribe', 'client.unsubscribe', 'client.disconnected',
  ],
  session: ['session.created', 'session.resumed', 'session.takenover', 'session.discarded', 'session.terminated'],
  acl: [
    'authorization.allow', 'authorization.deny', 'authorization.cache_hit', 'authorization.cache_miss', 'authorization.superuser',
    'authorization.nomatch', 'authorization.matched.allow', 'authorization.matched.deny',
  ],
  authn: ['authentication.success', 'authentication.success.anonymous', 'authentication.failure'],
}

/** Every group of /prometheus/stats by its JSON key. */
export type StatsGroups = Record<string, Family[]>

export function statsGroups(broker: Broker, vm: VmStats, mode: PrometheusMode): StatsGroups {
  const node = nodeLabel(mode, broker.node)
  const stats = broker.stats() as Record<StatName, number> & Record<string, number | undefined>
  const metrics = broker.metrics.snapshot()
  const vmStats = vm.read()
  const groups: StatsGroups = {
    stats: STATS.map(([name, key]) => single(name, 'gauge', stats[key] ?? 0, node)),
    stats_cluster: CLUSTER_STATS.map(([name, key]) => single(name, 'gauge', stats[key] ?? 0)),
    metrics: VM.map(([name, key]) => single(name, 'gauge', key ? vmStats[key] : 0, node)),
    cluster: [single('emqx_cluster_nodes_running', 'gauge', 1, node), single('emqx_cluster_nodes_stopped', 'gauge', 0, node)],
  }
  for (const [group, keys] of Object.entries(COUNTER_GROUPS)) {
    groups[group] = keys.map((key) => single(familyOf(key), 'counter', metrics[key], node))
  }
  // Per listener and reason in EMQX (esockd's shutdown counts), which the embedded listeners do not keep.
  groups.client.push({ name: 'emqx_client_disconnected_reason', type: 'counter', samples: [] })
  // Per SSL/WSS listener with a certificate file; the embedded broker's listeners are TCP and WS.
  groups.certs = [{ name: 'emqx_cert_expiry_at', type: 'gauge', samples: [] }]
  return groups
}

const TEXT_ORDER = ['stats', 'stats_cluster', 'metrics', 'cluster', 'packets', 'messages', 'delivery', 'client', 'session', 'acl', 'authn', 'certs']

export function statsText(groups: StatsGroups): string {
  return toText(TEXT_ORDER.flatMap((key) => groups[key] ?? []))
}

/** emqx_prometheus:collect(<<"json">>): stats joined with the cluster-wide ones, then one key per group. */
export function statsJson(groups: StatsGroups, mode: PrometheusMode): Record<string, unknown> {
  const cluster = zipSamples(groups.stats_cluster)[0] ?? {}
  const stats = zipSamples(groups.stats).map((row) => ({ ...row, ...cluster }))
  const json = (key: string) => objectOrList(mode, zipSamples(groups[key]))
  const reasons = groups.client.filter((family) => family.name === 'emqx_client_disconnected_reason')
  const client = zipSamples(groups.client.filter((family) => !reasons.includes(family)))
  return {
    stats: objectOrList(mode, stats),
    metrics: mode === 'node' ? (zipSamples(groups.metrics)[0] ?? {}) : zipSamples(groups.metrics),
    packets: json('packets'),
    messages: json('messages'),
    delivery: json('delivery'),
    client: [...client, ...zipSamples(reasons)],
    session: json('session'),
    cluster: json('cluster'),
    olp: {},
    acl: json('acl'),
    authn: json('authn'),
    certs: zipSamples(groups.certs),
    cluster_rpc: {},
  }
}
