// The spec's route table and menu, as data: the router tree, the left menu and the `go.*`
// navigation commands are all generated from it. Which of these screens are built is said once, by
// src/routes/screens.ts having a component for the path. No React here.

export interface Screen {
  /** Stable id; the navigation command is `go.<id>`. */
  id: string
  /** Full path of a screen without parameters. */
  path: string
  /** i18n key of its title. */
  title: string
  /** A `g x` style shortcut for the navigation command. */
  shortcut?: string
}

/** Parent paths that redirect to a child, as in SPEC section 2. */
export const redirects: Record<string, string> = {
  '/': '/dashboard',
  '/dashboard': '/dashboard/overview',
  '/alarm': '/alarm/current-alarm',
  '/clients': '/clients/list',
  '/subscriptions': '/subscriptions/subscription',
  '/authentication': '/authentication/list',
  '/authorization': '/authorization/list',
  '/gateway': '/gateway/list',
  '/plugins': '/plugins/list',
  '/exhook': '/exhook/list',
  '/webhook': '/webhook/list',
  '/rule': '/rule/rules',
  '/connector': '/connector/list',
  '/flow': '/flow/list',
  '/mqtt': '/mqtt/general',
  '/monitoring': '/monitoring/alarm-settings',
  '/slow-sub': '/slow-sub/list',
  '/log-trace': '/log-trace/list',
}

/** Screens reachable without parameters. */
export const screens: Screen[] = [
  { id: 'overview', path: '/dashboard/overview', title: 'nav.overview', shortcut: 'g o' },
  { id: 'nodes', path: '/dashboard/nodes', title: 'nav.nodes', shortcut: 'g n' },
  { id: 'metrics', path: '/dashboard/metrics', title: 'nav.metrics', shortcut: 'g m' },
  { id: 'clients', path: '/clients/list', title: 'nav.clients', shortcut: 'g c' },
  { id: 'subscriptions', path: '/subscriptions/subscription', title: 'nav.subscriptions', shortcut: 'g s' },
  { id: 'topics', path: '/subscriptions/topics', title: 'nav.topics', shortcut: 'g t' },
  { id: 'retained', path: '/retained', title: 'nav.retained' },
  { id: 'delayedPub', path: '/delayed-pub', title: 'nav.delayedPub' },
  { id: 'topicMetrics', path: '/topic-metrics', title: 'nav.topicMetrics' },
  { id: 'slowSub', path: '/slow-sub/list', title: 'nav.slowSub' },
  { id: 'slowSubConfig', path: '/slow-sub/config', title: 'nav.slowSubConfig' },
  { id: 'currentAlarm', path: '/alarm/current-alarm', title: 'nav.currentAlarm', shortcut: 'g a' },
  { id: 'historyAlarm', path: '/alarm/history-alarm', title: 'nav.historyAlarm' },
  { id: 'rules', path: '/rule/rules', title: 'nav.rules', shortcut: 'g r' },
  { id: 'ruleCreate', path: '/rule/rules/create', title: 'nav.ruleCreate' },
  { id: 'actions', path: '/rule/actions', title: 'nav.actions' },
  { id: 'actionCreate', path: '/rule/actions/create', title: 'nav.actionCreate' },
  // SPEC 2 names no path for sources; EMQX's dashboard has /rule/source, beside /rule/actions here.
  { id: 'sources', path: '/rule/sources', title: 'nav.sources' },
  { id: 'sourceCreate', path: '/rule/sources/create', title: 'nav.sourceCreate' },
  { id: 'flows', path: '/flow/list', title: 'nav.flows', shortcut: 'g f' },
  { id: 'flowCreate', path: '/flow/create', title: 'nav.flowCreate' },
  { id: 'connectors', path: '/connector/list', title: 'nav.connectors' },
  { id: 'connectorCreate', path: '/connector/create', title: 'nav.connectorCreate' },
  { id: 'webhooks', path: '/webhook/list', title: 'nav.webhooks' },
  { id: 'webhookCreate', path: '/webhook/create', title: 'nav.webhookCreate' },
  { id: 'authentication', path: '/authentication/list', title: 'nav.authentication', shortcut: 'g e' },
  { id: 'authenticationCreate', path: '/authentication/create', title: 'nav.authenticationCreate' },
  { id: 'authorization', path: '/authorization/list', title: 'nav.authorization', shortcut: 'g z' },
  { id: 'authorizationCreate', path: '/authorization/create', title: 'nav.authorizationCreate' },
  { id: 'bannedClients', path: '/banned-clients', title: 'nav.bannedClients', shortcut: 'g b' },
  { id: 'apiKey', path: '/api-key', title: 'nav.apiKey', shortcut: 'g k' },
  { id: 'gateways', path: '/gateway/list', title: 'nav.gateways' },
  { id: 'exhook', path: '/exhook/list', title: 'nav.exhook' },
  { id: 'exhookCreate', path: '/exhook/create', title: 'nav.exhookCreate' },
  { id: 'plugins', path: '/plugins/list', title: 'nav.plugins' },
  { id: 'pluginInstall', path: '/plugins/install', title: 'nav.pluginInstall' },
  { id: 'users', path: '/users', title: 'nav.users', shortcut: 'g u' },
  { id: 'backup', path: '/backup', title: 'nav.backup', shortcut: 'g d' },
  { id: 'websocket', path: '/websocket', title: 'nav.websocket', shortcut: 'g w' },
  { id: 'logTrace', path: '/log-trace/list', title: 'nav.logTrace' },
  { id: 'log', path: '/log', title: 'nav.log' },
  { id: 'cluster', path: '/cluster', title: 'nav.cluster' },
  { id: 'telemetry', path: '/telemetry', title: 'nav.telemetry' },
  { id: 'basicConfig', path: '/basic-config', title: 'nav.basicConfig' },
  { id: 'limiter', path: '/limiter', title: 'nav.limiter' },
  { id: 'listeners', path: '/listener', title: 'nav.listeners', shortcut: 'g l' },
  { id: 'mqttGeneral', path: '/mqtt/general', title: 'nav.mqttGeneral', shortcut: 'g g' },
  { id: 'mqttSession', path: '/mqtt/session', title: 'nav.mqttSession' },
  { id: 'mqttRetainer', path: '/mqtt/retainer', title: 'nav.mqttRetainer' },
  { id: 'systemTopic', path: '/mqtt/system-topic', title: 'nav.systemTopic' },
  { id: 'topicRewrite', path: '/topic-rewrite', title: 'nav.topicRewrite' },
  { id: 'autoSub', path: '/auto-sub', title: 'nav.autoSub' },
  { id: 'delayedPubConfig', path: '/delayed-pub-configuration', title: 'nav.delayedPubConfig' },
  { id: 'flappingDetect', path: '/flapping-detect', title: 'nav.flappingDetect' },
  { id: 'alarmSettings', path: '/monitoring/alarm-settings', title: 'nav.alarmSettings' },
  { id: 'monitoringIntegration', path: '/monitoring/integration', title: 'nav.monitoringIntegration', shortcut: 'g i' },
  { id: 'settings', path: '/settings', title: 'nav.settings', shortcut: 'g ,' },
]

/** Screens with parameters (detail pages); the router needs them, the menu does not. */
export const detailPaths: { path: string; title: string }[] = [
  { path: '/dashboard/nodes/$nodeName', title: 'nav.nodeDetail' },
  { path: '/clients/detail/$clientId', title: 'nav.clientDetail' },
  { path: '/authentication/detail/$id', title: 'nav.authenticationDetail' },
  { path: '/authorization/detail/$type', title: 'nav.authorizationDetail' },
  { path: '/gateway/create/$name', title: 'nav.gatewayCreate' },
  { path: '/gateway/detail/$name', title: 'nav.gatewayDetail' },
  { path: '/gateway/detail/$name/$tab', title: 'nav.gatewayDetail' },
  { path: '/plugins/detail/$plugin', title: 'nav.pluginDetail' },
  { path: '/exhook/detail/$exhookName', title: 'nav.exhookDetail' },
  { path: '/webhook/$name', title: 'nav.webhookDetail' },
  { path: '/rule/rules/$id', title: 'nav.ruleDetail' },
  { path: '/rule/actions/$id', title: 'nav.actionDetail' },
  { path: '/rule/sources/$id', title: 'nav.sourceDetail' },
  { path: '/connector/$id', title: 'nav.connectorDetail' },
  { path: '/flow/$id', title: 'nav.flowDetail' },
  { path: '/log-trace/detail/$id', title: 'nav.logTraceDetail' },
]

export interface MenuItem {
  /** Screen id from `screens`. */
  screen: string
  /** Also highlighted for these path prefixes (e.g. detail pages). */
  match?: string[]
}
export interface MenuGroup {
  id: string
  title: string
  items: (MenuItem | { title: string; items: MenuItem[] })[]
}

/** The left menu groups of SPEC section 2. Entries whose routes the spec does not give are left out. */
export const menu: MenuGroup[] = [
  { id: 'clusterOverview', title: 'menu.clusterOverview', items: [{ screen: 'overview', match: ['/dashboard'] }] },
  {
    id: 'monitoring',
    title: 'menu.monitoring',
    items: [
      { screen: 'clients', match: ['/clients'] },
      { screen: 'subscriptions', match: ['/subscriptions'] },
      { screen: 'retained' },
      { screen: 'delayedPub' },
      { screen: 'topicMetrics' },
      { screen: 'slowSub', match: ['/slow-sub'] },
      { screen: 'currentAlarm', match: ['/alarm'] },
    ],
  },
  {
    id: 'integration',
    title: 'menu.integration',
    items: [
      { screen: 'rules', match: ['/rule/rules'] },
      { screen: 'flows', match: ['/flow'] },
      { screen: 'connectors', match: ['/connector'] },
      { screen: 'actions', match: ['/rule/actions'] },
      { screen: 'sources', match: ['/rule/sources'] },
      { screen: 'webhooks', match: ['/webhook'] },
    ],
  },
  {
    id: 'accessControl',
    title: 'menu.accessControl',
    items: [
      { screen: 'authentication', match: ['/authentication'] },
      { screen: 'authorization', match: ['/authorization'] },
      { screen: 'bannedClients' },
      { screen: 'apiKey' },
    ],
  },
  {
    id: 'management',
    title: 'menu.management',
    items: [
      { screen: 'gateways', match: ['/gateway'] },
      { screen: 'exhook', match: ['/exhook'] },
      { screen: 'plugins', match: ['/plugins'] },
      { screen: 'backup' },
      { screen: 'users' },
    ],
  },
  {
    id: 'diagnose',
    title: 'menu.diagnose',
    items: [{ screen: 'websocket' }, { screen: 'logTrace', match: ['/log-trace'] }],
  },
  {
    id: 'systemSettings',
    title: 'menu.systemSettings',
    items: [
      { screen: 'basicConfig' },
      { screen: 'cluster' },
      { screen: 'log' },
      { screen: 'limiter' },
      { screen: 'listeners' },
      { screen: 'mqttGeneral', match: ['/mqtt'] },
      { screen: 'alarmSettings', match: ['/monitoring'] },
      {
        title: 'menu.advancedMqtt',
        items: [
          { screen: 'topicRewrite' },
          { screen: 'autoSub' },
          { screen: 'delayedPubConfig' },
          { screen: 'systemTopic' },
          { screen: 'flappingDetect' },
          { screen: 'telemetry' },
        ],
      },
    ],
  },
]

export function screenById(id: string): Screen | undefined {
  return screens.find((s) => s.id === id)
}
