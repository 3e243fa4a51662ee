// The typed EMQX v5 API: one module per area, composed over one Http client.
import type { Http } from './http.ts'
import { apiKeysApi } from './apiKeys.ts'
import { loginApi } from './login.ts'
import { authnApi } from './authn.ts'
import { authzApi } from './authz.ts'
import { autoSubscribeApi } from './autoSubscribe.ts'
import { bannedApi } from './banned.ts'
import { clientsApi } from './clients.ts'
import { clusterApi } from './cluster.ts'
import { dataBackupApi } from './dataBackup.ts'
import { telemetryApi } from './telemetry.ts'
import { configsApi } from './configs.ts'
import { connectorsApi } from './connectors.ts'
import { delayedApi } from './delayed.ts'
import { flappingApi } from './flapping.ts'
import { metricsApi } from './metrics.ts'
import { licenseApi } from './license.ts'
import { listenersApi } from './listeners.ts'
import { logApi } from './log.ts'
import { monitorApi } from './monitor.ts'
import { mqttConfigApi } from './mqttConfig.ts'
import { nodesApi } from './nodes.ts'
import { opentelemetryApi } from './opentelemetry.ts'
import { prometheusApi } from './prometheus.ts'
import { publishApi } from './publish.ts'
import { retainerApi } from './retainer.ts'
import { rulesApi } from './rules.ts'
import { topicMetricsApi } from './topicMetrics.ts'
import { alarmConfigApi, alarmsApi, sysmonApi } from './alarms.ts'
import { slowSubsApi } from './slowSubs.ts'
import { subscriptionsApi } from './subscriptions.ts'
import { topicRewriteApi } from './topicRewrite.ts'
import { topicsApi } from './topics.ts'
import { traceApi } from './trace.ts'
import { usersApi } from './users.ts'

export function createApi(http: Http) {
  return {
    http,
    login: loginApi(http),
    clients: clientsApi(http),
    subscriptions: subscriptionsApi(http),
    topics: topicsApi(http),
    banned: bannedApi(http),
    authn: authnApi(http),
    authz: authzApi(http),
    flapping: flappingApi(http),
    retainer: retainerApi(http),
    delayed: delayedApi(http),
    topicMetrics: topicMetricsApi(http),
    alarms: alarmsApi(http),
    sysmon: sysmonApi(http),
    alarmConfig: alarmConfigApi(http),
    slowSubs: slowSubsApi(http),
    publish: publishApi(http),
    mqttConfig: mqttConfigApi(http),
    monitor: monitorApi(http),
    nodes: nodesApi(http),
    listeners: listenersApi(http),
    log: logApi(http),
    license: licenseApi(http),
    metrics: metricsApi(http),
    topicRewrite: topicRewriteApi(http),
    autoSubscribe: autoSubscribeApi(http),
    apiKeys: apiKeysApi(http),
    users: usersApi(http),
    cluster: clusterApi(http),
    dataBackup: dataBackupApi(http),
    telemetry: telemetryApi(http),
    prometheus: prometheusApi(http),
    opentelemetry: opentelemetryApi(http),
    configs: configsApi(http),
    rules: rulesApi(http),
    connectors: connectorsApi(http),
    trace: traceApi(http),
  }
}

export type Api = ReturnType<typeof createApi>
