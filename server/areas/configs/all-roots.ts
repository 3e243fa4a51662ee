// Every config root the embedded server holds, built from the areas that own them. A new root is
// one line in `configRoots`. Names and order are EMQX 5.8's.
import { BROKER_KEPT, LIMITER_KEPT, brokerSchema, limiterSchema } from '../../../contract/configs.ts'
import { defaultMqttSettings, defaultSysTopics } from '../../broker/settings.ts'
import { defaultRetainerConfig } from '../../broker/retainer.ts'
import { keptRootSchemas, KEPT_ROOTS, type KeptRoot } from '../../../contract/mqtt-configs.ts'
import type { AreaContext } from '../area.ts'
import { alarmsArea } from '../alarms/index.ts'
import { defaultAlarmConfig, defaultSysmonOs } from '../alarms/feature.ts'
import { alarmSettings, sysmonOsSettings } from '../alarms/settings.ts'
import { delayedArea } from '../delayed/index.ts'
import { defaultDelayedConfig } from '../delayed/feature.ts'
import { delayedSettings } from '../delayed/settings.ts'
import { flappingArea } from '../flapping/index.ts'
import { defaultFlappingConfig } from '../flapping/feature.ts'
import { flappingSettings } from '../flapping/settings.ts'
import { logArea } from '../log/index.ts'
import { logSettings } from '../log/settings.ts'
import { loginArea } from '../login/index.ts'
import { mqttConfigsArea } from '../mqtt-configs/index.ts'
import { mqttSettings, sysTopicsSettings } from '../mqtt-configs/settings.ts'
import { retainerArea } from '../retainer/index.ts'
import { retainerSettings } from '../retainer/settings.ts'
import { slowSubsArea } from '../slow-subs/index.ts'
import { topicRewriteArea } from '../topic-rewrite/index.ts'
import { prepareRules } from '../topic-rewrite/settings.ts'
import { autoSubscribeArea } from '../auto-subscribe/index.ts'
import { prepareTopics } from '../auto-subscribe/settings.ts'
import { objectBody, unsupportedKeys } from '../../http/settings-route.ts'
import { badRequest } from '../../http/errors.ts'
import { defaultSlowSubsConfig } from '../slow-subs/feature.ts'
import { slowSubsSettings } from '../slow-subs/settings.ts'
import { defaultOtelConfig } from '../opentelemetry/feature.ts'
import { opentelemetryArea } from '../opentelemetry/index.ts'
import { otelSettings } from '../opentelemetry/settings.ts'
import { defaultPrometheusConfig } from '../prometheus/feature.ts'
import { prometheusArea } from '../prometheus/index.ts'
import { prometheusSettings } from '../prometheus/settings.ts'
import { rulesArea } from '../rules/index.ts'
import { ruleEngineConfigRoot } from '../rules/backup.ts'
import { connectorsArea } from '../connectors/index.ts'
import { integrationConfigRoots } from '../connectors/config-roots.ts'
import { dashboardSettings } from './dashboard.ts'
import { keptRoot, mqttDefaults, sectionsRoot, settingsRoot, type ConfigRoot } from './roots.ts'

export interface ConfigRoots {
  node: string
  /** Every root, in the order `GET /configs` writes them. */
  all: Record<string, ConfigRoot>
  dashboardSettings: ReturnType<typeof dashboardSettings>['settings']
  /** The port the API listens on, once the routes know it (the configured one may be 0: any free port). */
  listening: { port?: () => number }
}

/** The roots `GET /configs` leaves out of its HOCON text, as 5.8 hides them (emqx_conf_cli:hidden_roots; `bridges` is a hidden root of its schema, only ever loaded). */
export const HIDDEN_ROOTS = ['broker', 'bridges']
/** The roots `GET /configs` answers in its legacy JSON form (`Accept: application/json`). */
export const JSON_ROOTS = ['dashboard', 'alarm', 'sys_topics', 'sysmon', 'log', 'broker']
/** The roots `/configs_reset/{root}` takes (5.8's config_list). */
export const RESET_ROOTS = ['dashboard', 'alarm', 'sys_topics', 'sysmon', 'log', 'broker']
/** Roots a PUT /configs may not change (5.8's READONLY_ROOT_KEYS). */
export const READONLY_ROOTS = ['rpc', 'node']

export function configRoots(ctx: AreaContext): ConfigRoots {
  const { broker, configs } = ctx
  const mqttStore = ctx.use(mqttConfigsArea)
  const alarms = ctx.use(alarmsArea)
  const listening: ConfigRoots['listening'] = {}
  const dashboard = dashboardSettings(
    ctx.use(loginArea).guard,
    { port: () => listening.port?.() ?? ctx.config.port, sampleIntervalMs: ctx.config.dashboardMonitor?.sampleIntervalMs ?? 10_000 },
    configs,
  )
  const log = ctx.use(logArea)
  const rewrite = ctx.use(topicRewriteArea)
  const autoSubscribe = ctx.use(autoSubscribeArea)
  const integration = integrationConfigRoots(ctx.use(connectorsArea))
  const kept = (root: KeptRoot) => keptRoot(root, keptRootSchemas[root], () => structuredClone(KEPT_ROOTS[root]))
  const all: Record<string, ConfigRoot> = {
    mqtt: settingsRoot('mqtt', mqttSettings(broker, mqttStore), () => mqttDefaults(defaultMqttSettings)),
    flapping_detect: settingsRoot('flapping_detect', flappingSettings(ctx.use(flappingArea), configs), () => defaultFlappingConfig),
    force_shutdown: kept('force_shutdown'),
    force_gc: kept('force_gc'),
    durable_sessions: kept('durable_sessions'),
    sys_topics: settingsRoot('sys_topics', sysTopicsSettings(broker, mqttStore), () => defaultSysTopics),
    alarm: settingsRoot('alarm', alarmSettings(alarms, configs), () => defaultAlarmConfig),
    sysmon: sectionsRoot('sysmon', { os: settingsRoot('sysmon.os', sysmonOsSettings(alarms, configs), () => defaultSysmonOs) }),
    log: settingsRoot('log', logSettings(log, configs), () => log.defaults),
    dashboard: settingsRoot('dashboard', dashboard.settings, dashboard.defaults),
    limiter: keptRoot('limiter', limiterSchema, () => structuredClone(LIMITER_KEPT)),
    retainer: settingsRoot('retainer', retainerSettings(ctx.use(retainerArea), configs), () => defaultRetainerConfig),
    delayed: settingsRoot('delayed', delayedSettings(ctx.use(delayedArea), configs), () => defaultDelayedConfig),
    slow_subs: settingsRoot('slow_subs', slowSubsSettings(ctx.use(slowSubsArea), configs), () => defaultSlowSubsConfig),
    // Lists replace whole in either mode.
    rewrite: { current: () => rewrite.config, prepare: (value) => prepareRules(rewrite, configs, value, 'rewrite'), defaults: () => [] },
    auto_subscribe: {
      current: () => ({ topics: autoSubscribe.config }),
      prepare: (value, mode) => {
        const body = objectBody(value, 'auto_subscribe')
        const problem = unsupportedKeys(body, ['topics'])
        if (problem) throw badRequest(`auto_subscribe: ${problem}`)
        return prepareTopics(autoSubscribe, configs, body.topics ?? (mode === 'merge' ? autoSubscribe.config : []), 'auto_subscribe.topics')
      },
      defaults: () => ({ topics: [] }),
    },
    connectors: integration.connectors,
    actions: integration.actions,
    sources: integration.sources,
    // Hidden, and only loaded: v1 bridges become connectors and actions (or sources).
    bridges: integration.bridges,
    rule_engine: ruleEngineConfigRoot(ctx.use(rulesArea), configs),
    prometheus: settingsRoot('prometheus', prometheusSettings(ctx.use(prometheusArea), configs), () => defaultPrometheusConfig),
    opentelemetry: settingsRoot('opentelemetry', otelSettings(ctx.use(opentelemetryArea), configs), () => defaultOtelConfig),
    broker: keptRoot('broker', brokerSchema, () => structuredClone(BROKER_KEPT)),
  }
  return { node: broker.node, all, dashboardSettings: dashboard.settings, listening }
}
