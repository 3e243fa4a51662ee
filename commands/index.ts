// Every command of the console, in the order the palette shows their groups.
import type { AnyCommand } from './define.ts'
import { navigationCommands } from './navigation.ts'
import { clientCommands } from './clients.ts'
import { publishCommands } from './publish.ts'
import { testClientCommands } from './testClient.ts'
import { bannedCommands } from './banned.ts'
import { authnCommands } from './authn.ts'
import { authzCommands } from './authz.ts'
import { listenerCommands } from './listeners.ts'
import { flappingCommands } from './flapping.ts'
import { retainerCommands } from './retainer.ts'
import { delayedCommands } from './delayed.ts'
import { topicMetricsCommands } from './topicMetrics.ts'
import { alarmCommands } from './alarms.ts'
import { logCommands } from './log.ts'
import { monitorCommands } from './monitor.ts'
import { slowSubsCommands } from './slowSubs.ts'
import { prometheusCommands } from './prometheus.ts'
import { opentelemetryCommands } from './opentelemetry.ts'
import { topicRewriteCommands } from './topicRewrite.ts'
import { autoSubscribeCommands } from './autoSubscribe.ts'
import { ruleCommands } from './rules.ts'
import { apiKeyCommands } from './apiKeys.ts'
import { userCommands } from './users.ts'
import { clusterCommands } from './cluster.ts'
import { dataBackupCommands } from './dataBackup.ts'
import { telemetryCommands } from './telemetry.ts'
import { configsCommands } from './configs.ts'
import { mqttCommands } from './mqtt.ts'
import { mqttSettingsCommands } from './mqttSettings.ts'
import { settingsCommands } from './settings.ts'
import { logout } from './session.ts'
import { helpCommands } from './help.ts'
import { historyCommands } from './history.ts'
import { ruleTestCommands } from './ruleTest.ts'
import { ruleTapCommands } from './ruleTap.ts'
import { connectorCommands } from './connectors.ts'
import { actionCommands } from './actions.ts'
import { sourceCommands } from './sources.ts'
import { webhookCommands } from './webhooks.ts'
import { traceCommands } from './trace.ts'

// A command's argument type appears both in and out (`args`, `describe`), which makes
// Command<S> invariant in S; the list holds them by their common shape.
function erase(commands: readonly Pick<AnyCommand, 'id' | 'run'>[]): AnyCommand[] {
  return commands as unknown as AnyCommand[]
}

export const allCommands: AnyCommand[] = [
  ...erase(navigationCommands),
  ...erase(clientCommands),
  ...erase(publishCommands),
  ...erase(testClientCommands),
  ...erase(bannedCommands),
  ...erase(authnCommands),
  ...erase(authzCommands),
  ...erase(listenerCommands),
  ...erase(flappingCommands),
  ...erase(retainerCommands),
  ...erase(delayedCommands),
  ...erase(topicMetricsCommands),
  ...erase(alarmCommands),
  ...erase(logCommands),
  ...erase(monitorCommands),
  ...erase(slowSubsCommands),
  ...erase(prometheusCommands),
  ...erase(opentelemetryCommands),
  ...erase(mqttCommands),
  ...erase(mqttSettingsCommands),
  ...erase(topicRewriteCommands),
  ...erase(autoSubscribeCommands),
  ...erase(ruleCommands),
  ...erase(ruleTestCommands),
  ...erase(connectorCommands),
  ...erase(actionCommands),
  ...erase(sourceCommands),
  ...erase(webhookCommands),
  ...erase(traceCommands),
  ...erase(apiKeyCommands),
  ...erase(userCommands),
  ...erase(clusterCommands),
  ...erase(dataBackupCommands),
  ...erase(telemetryCommands),
  ...erase(configsCommands),
  ...erase(ruleTapCommands),
  ...erase(settingsCommands),
  ...erase([logout]),
  ...erase(helpCommands),
  ...erase(historyCommands),
]
