// The settings documents a backup holds, each as a root (or a key below one) of cluster.hocon as
// EMQX names it, with where the embedded server keeps it and how it is put in force again after an
// import. A document never changed is not stored and not exported (EMQX exports the overrides).
import * as v from 'valibot'
import { AutoSubscribeTopicSchema } from '../../../contract/auto-subscribe.ts'
import { RewriteRuleSchema } from '../../../contract/topic-rewrite.ts'
import type { SettingsStore } from '../../http/settings-route.ts'
import { SettingsRepository } from '../../store/settings.ts'
import { alarmsArea } from '../alarms/index.ts'
import { alarmSettings, sysmonOsSettings } from '../alarms/settings.ts'
import type { AreaContext } from '../area.ts'
import { autoSubscribeArea } from '../auto-subscribe/index.ts'
import { integrationDocument } from '../connectors/backup.ts'
import { connectorsArea } from '../connectors/index.ts'
import { authzArea } from '../authz/index.ts'
import { authzSettings } from '../authz/settings.ts'
import { delayedArea } from '../delayed/index.ts'
import { delayedSettings } from '../delayed/settings.ts'
import { flappingArea } from '../flapping/index.ts'
import { flappingSettings } from '../flapping/settings.ts'
import { mqttSettings, sysTopicsSettings } from '../mqtt-configs/settings.ts'
import { opentelemetryArea } from '../opentelemetry/index.ts'
import { otelSettings } from '../opentelemetry/settings.ts'
import { prometheusArea } from '../prometheus/index.ts'
import { prometheusSettings } from '../prometheus/settings.ts'
import { retainerSettings } from '../retainer/settings.ts'
import { ruleEngineDocument } from '../rules/backup.ts'
import { rulesArea } from '../rules/index.ts'
import { slowSubsArea } from '../slow-subs/index.ts'
import { slowSubsSettings } from '../slow-subs/settings.ts'
import { StoredTopicMetricsSchema } from '../topic-metrics/feature.ts'
import { topicMetricsArea } from '../topic-metrics/index.ts'
import { topicRewriteArea } from '../topic-rewrite/index.ts'

export interface ConfigDocument {
  /** Where it sits in cluster.hocon: a root key, or a root key and a key below it. */
  path: readonly string[]
  store: SettingsStore
  key: string
  /** Checks an imported value before anything is written. */
  schema: v.GenericSchema
  /** Puts a checked value in force. */
  apply(value: unknown): void
}

type Doc = Omit<ConfigDocument, 'apply'> & { apply(value: never): void }

/** Every settings document of the embedded server, by its place in EMQX's configuration. */
export function configDocuments(ctx: AreaContext): ConfigDocument[] {
  const settings = new SettingsRepository(ctx.db)
  const alarms = ctx.use(alarmsArea)
  const rewrite = ctx.use(topicRewriteArea)
  const autoSubscribe = ctx.use(autoSubscribeArea)
  const topicMetrics = ctx.use(topicMetricsArea)
  const docs: Array<Doc & { path: readonly string[] }> = [
    { path: ['mqtt'], ...mqttSettings(ctx.broker, settings) },
    { path: ['sys_topics'], ...sysTopicsSettings(ctx.broker, settings) },
    { path: ['retainer'], ...retainerSettings(ctx.broker.retainer, ctx.configs) },
    { path: ['delayed'], ...delayedSettings(ctx.use(delayedArea), ctx.configs) },
    { path: ['flapping_detect'], ...flappingSettings(ctx.use(flappingArea), ctx.configs) },
    { path: ['slow_subs'], ...slowSubsSettings(ctx.use(slowSubsArea), ctx.configs) },
    { path: ['alarm'], ...alarmSettings(alarms, ctx.configs) },
    { path: ['sysmon', 'os'], ...sysmonOsSettings(alarms, ctx.configs) },
    { path: ['authorization'], ...authzSettings(ctx.use(authzArea).access, ctx.configs) },
    { path: ['prometheus'], ...prometheusSettings(ctx.use(prometheusArea), ctx.configs) },
    { path: ['opentelemetry'], ...otelSettings(ctx.use(opentelemetryArea), ctx.configs) },
    { path: ['rule_engine'], ...ruleEngineDocument(ctx.use(rulesArea), ctx.configs) },
    { path: ['connectors'], ...integrationDocument(ctx.use(connectorsArea), 'connectors') },
    { path: ['actions'], ...integrationDocument(ctx.use(connectorsArea), 'actions') },
    { path: ['sources'], ...integrationDocument(ctx.use(connectorsArea), 'sources') },
    { path: ['rewrite'], store: ctx.configs, key: 'topic_rewrite', schema: v.array(RewriteRuleSchema), apply: (rules) => rewrite.configure(rules) },
    {
      path: ['auto_subscribe', 'topics'],
      store: ctx.configs,
      key: 'auto_subscribe',
      schema: v.array(AutoSubscribeTopicSchema),
      apply: (topics) => autoSubscribe.configure(topics),
    },
    {
      path: ['topic_metrics'],
      store: ctx.configs,
      key: 'topic_metrics',
      schema: StoredTopicMetricsSchema,
      apply: (list: v.InferOutput<typeof StoredTopicMetricsSchema>) => topicMetrics.load(list.map((entry) => entry.topic)),
    },
  ]
  return docs.map(({ path, store, key, schema, apply }) => ({ path, store, key, schema, apply: apply as (value: unknown) => void }))
}
