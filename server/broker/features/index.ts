// Wires EMQX's broker features (banned, flapping, topic rewrite, auto subscribe, delayed publish,
// retainer) to a broker and the SQLite store, with their settings read back from the last run.
import * as v from 'valibot'
import { BannedRepository } from '../../areas/banned/store.ts'
import type { Database } from '../../store/db.ts'
import { DelayedRepository } from '../../areas/delayed/store.ts'
import { FeatureConfigRepository } from '../../store/feature-config.ts'
import { SqliteRetainedStore } from '../../areas/retainer/store.ts'
import type { Broker } from '../broker.ts'
import { AutoSubscribeFeature, AutoSubscribeTopicSchema } from '../../areas/auto-subscribe/feature.ts'
import { BannedFeature } from '../../areas/banned/feature.ts'
import { DelayedConfigSchema, DelayedFeature } from '../../areas/delayed/feature.ts'
import { FlappingConfigSchema, FlappingFeature } from '../../areas/flapping/feature.ts'
import { RetainerConfigSchema } from '../retainer.ts'
import { RewriteRuleSchema, TopicRewriteFeature } from '../../areas/topic-rewrite/feature.ts'
import { SlowSubsConfigSchema, SlowSubsFeature, type SlowSubsOptions } from '../../areas/slow-subs/feature.ts'
import { StoredTopicMetricsSchema, TopicMetricsFeature } from '../../areas/topic-metrics/feature.ts'
import { AlarmConfigSchema, AlarmMonitor, SysmonOsSchema, type AlarmOptions } from '../../areas/alarms/feature.ts'
import { AlarmRepository } from '../../areas/alarms/store.ts'

/** Monitoring timings and watermarks (server config), so tests can drive them quickly. */
export interface MonitoringOptions {
  /** Topic metrics' rate sampling period (EMQX: 1 s). */
  topicMetricsTickMs?: number
  alarms?: AlarmOptions
  /** Slow subscriptions' clock and expiry sweep period (EMQX: 10 s). */
  slowSubs?: SlowSubsOptions
}

export interface Features {
  banned: BannedFeature
  flapping: FlappingFeature
  rewrite: TopicRewriteFeature
  autoSubscribe: AutoSubscribeFeature
  delayed: DelayedFeature
  slowSubs: SlowSubsFeature
  topicMetrics: TopicMetricsFeature
  alarms: AlarmMonitor
  broker: Broker
  configs: FeatureConfigRepository
  stop(): void
}

/** A stored setting, when it still passes today's schema. */
function stored<S extends v.GenericSchema>(configs: FeatureConfigRepository, name: string, schema: S): v.InferOutput<S> | undefined {
  const value = configs.get<unknown>(name)
  if (value === undefined) return undefined
  const result = v.safeParse(schema, value)
  return result.success ? result.output : undefined
}

export function installFeatures(broker: Broker, db: Database, options: { slowSubs?: SlowSubsOptions; monitoring?: MonitoringOptions } = {}): Features {
  const configs = new FeatureConfigRepository(db)
  const retainedStore = new SqliteRetainedStore(db)
  const retainerConfig = stored(configs, 'retainer', RetainerConfigSchema)
  // `ram` storage keeps retained messages for this run only, like EMQX's RAM copies.
  if (retainerConfig?.backend.storage_type === 'ram') retainedStore.clear()
  broker.retainer.useStore(retainedStore)
  if (retainerConfig) broker.retainer.configure(retainerConfig)

  const banned = new BannedFeature(broker, new BannedRepository(db))
  const flapping = new FlappingFeature(broker, banned)
  const rewrite = new TopicRewriteFeature(broker)
  const autoSubscribe = new AutoSubscribeFeature(broker)
  const delayed = new DelayedFeature(broker, new DelayedRepository(db), (clientid) => banned.isClientIdBanned(clientid))

  const flappingConfig = stored(configs, 'flapping_detect', FlappingConfigSchema)
  if (flappingConfig) flapping.configure(flappingConfig)
  const rules = stored(configs, 'topic_rewrite', v.array(RewriteRuleSchema))
  if (rules) rewrite.configure(rules)
  const topics = stored(configs, 'auto_subscribe', v.array(AutoSubscribeTopicSchema))
  if (topics) autoSubscribe.configure(topics)
  const delayedConfig = stored(configs, 'delayed', DelayedConfigSchema)
  if (delayedConfig) delayed.configure(delayedConfig)
  const slowSubs = new SlowSubsFeature(broker, options.slowSubs ?? options.monitoring?.slowSubs)
  const slowSubsConfig = stored(configs, 'slow_subs', SlowSubsConfigSchema)
  if (slowSubsConfig) slowSubs.configure(slowSubsConfig)

  const monitoring = options.monitoring ?? {}
  const topicMetrics = new TopicMetricsFeature(broker, {
    tickMs: monitoring.topicMetricsTickMs,
    persist: (list) => configs.set('topic_metrics', list.map((topic) => ({ topic }))),
  })
  topicMetrics.load((stored(configs, 'topic_metrics', StoredTopicMetricsSchema) ?? []).map((entry) => entry.topic))
  const alarms = new AlarmMonitor(broker, new AlarmRepository(db), monitoring.alarms)
  const sysmonOs = stored(configs, 'sysmon_os', SysmonOsSchema)
  if (sysmonOs) alarms.configure(sysmonOs)
  const alarmConfig = stored(configs, 'alarm', AlarmConfigSchema)
  if (alarmConfig) alarms.configureAlarm(alarmConfig)

  broker.featureStats = () => ({ 'delayed.count': delayed.count(), 'delayed.max': delayed.maxCount })

  return {
    banned,
    flapping,
    rewrite,
    autoSubscribe,
    delayed,
    slowSubs,
    topicMetrics,
    alarms,
    broker,
    configs,
    stop() {
      alarms.stop()
      topicMetrics.stop()
      slowSubs.stop()
      delayed.stop()
      autoSubscribe.stop()
      rewrite.stop()
      flapping.stop()
      banned.stop()
      broker.retainer.stop()
      broker.featureStats = () => ({})
    },
  }
}
