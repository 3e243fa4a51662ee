// Every REST area of the embedded server, one line each. Installed in this order (an area another
// one uses goes first), stopped in reverse; their migrations run in this order too.
import type { ServerArea } from './area.ts'
import { alarmsArea } from './alarms/index.ts'
import { apiKeysArea } from './api-keys/index.ts'
import { authnArea } from './authn/index.ts'
import { authzArea } from './authz/index.ts'
import { autoSubscribeArea } from './auto-subscribe/index.ts'
import { bannedArea } from './banned/index.ts'
import { clientsArea } from './clients/index.ts'
import { configsArea } from './configs/index.ts'
import { connectorsArea } from './connectors/index.ts'
import { delayedArea } from './delayed/index.ts'
import { flappingArea } from './flapping/index.ts'
import { listenersArea } from './listeners/index.ts'
import { logArea } from './log/index.ts'
import { loginArea } from './login/index.ts'
import { monitorArea } from './monitor/index.ts'
import { mqttConfigsArea } from './mqtt-configs/index.ts'
import { nodesArea } from './nodes/index.ts'
import { opentelemetryArea } from './opentelemetry/index.ts'
import { prometheusArea } from './prometheus/index.ts'
import { publishArea } from './publish/index.ts'
import { retainerArea } from './retainer/index.ts'
import { rulesArea } from './rules/index.ts'
import { schemasArea } from './schemas/index.ts'
import { slowSubsArea } from './slow-subs/index.ts'
import { subscriptionsArea } from './subscriptions/index.ts'
import { topicMetricsArea } from './topic-metrics/index.ts'
import { topicRewriteArea } from './topic-rewrite/index.ts'
import { telemetryArea } from './telemetry/index.ts'
import { clusterArea } from './cluster/index.ts'
import { dataBackupArea } from './data-backup/index.ts'
import { topicsArea } from './topics/index.ts'
import { traceArea } from './trace/index.ts'

export const serverAreas: readonly ServerArea[] = [
  logArea,
  mqttConfigsArea,
  loginArea,
  apiKeysArea,
  nodesArea,
  listenersArea,
  clientsArea,
  subscriptionsArea,
  topicsArea,
  publishArea,
  retainerArea,
  bannedArea,
  authnArea,
  authzArea,
  flappingArea,
  topicRewriteArea,
  autoSubscribeArea,
  delayedArea,
  slowSubsArea,
  topicMetricsArea,
  rulesArea,
  connectorsArea,
  traceArea,
  alarmsArea,
  monitorArea,
  telemetryArea,
  clusterArea,
  dataBackupArea,
  configsArea,
  prometheusArea,
  opentelemetryArea,
  schemasArea,
]
