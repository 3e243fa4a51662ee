// The screens built in this release: a path of the route table (commands/routes.ts) and its
// component, one line a screen. A screen is built when it is here; the router shows the "not built
// yet" notice for every other path. Components load when first visited, so /login stays small.
import { lazyRouteComponent, type RouteComponent } from '@tanstack/react-router'

export const screenComponents: Record<string, RouteComponent> = {
  '/dashboard/overview': lazyRouteComponent(() => import('../features/dashboard/Overview.tsx'), 'Overview'),
  '/dashboard/nodes': lazyRouteComponent(() => import('../features/nodes/NodeList.tsx'), 'NodeList'),
  '/dashboard/nodes/$nodeName': lazyRouteComponent(() => import('../features/nodes/NodeDetail.tsx'), 'NodeDetail'),
  '/dashboard/metrics': lazyRouteComponent(() => import('../features/nodes/MetricsPage.tsx'), 'MetricsPage'),
  '/clients/list': lazyRouteComponent(() => import('../features/clients/ClientList.tsx'), 'ClientList'),
  '/clients/detail/$clientId': lazyRouteComponent(() => import('../features/clients/ClientDetail.tsx'), 'ClientDetail'),
  '/subscriptions/subscription': lazyRouteComponent(() => import('../features/subscriptions/SubscriptionList.tsx'), 'SubscriptionList'),
  '/subscriptions/topics': lazyRouteComponent(() => import('../features/subscriptions/TopicList.tsx'), 'TopicList'),
  '/retained': lazyRouteComponent(() => import('../features/retained/RetainedList.tsx'), 'RetainedList'),
  '/delayed-pub': lazyRouteComponent(() => import('../features/delayed/DelayedList.tsx'), 'DelayedList'),
  '/topic-metrics': lazyRouteComponent(() => import('../features/topicMetrics/TopicMetrics.tsx'), 'TopicMetrics'),
  '/slow-sub/list': lazyRouteComponent(() => import('../features/slowSubs/SlowSubList.tsx'), 'SlowSubList'),
  '/slow-sub/config': lazyRouteComponent(() => import('../features/slowSubs/SlowSubSettings.tsx'), 'SlowSubSettings'),
  '/alarm/current-alarm': lazyRouteComponent(() => import('../features/alarms/CurrentAlarms.tsx'), 'CurrentAlarms'),
  '/alarm/history-alarm': lazyRouteComponent(() => import('../features/alarms/AlarmHistory.tsx'), 'AlarmHistory'),
  '/websocket': lazyRouteComponent(() => import('../features/websocket/WebSocketClient.tsx'), 'WebSocketClient'),
  '/banned-clients': lazyRouteComponent(() => import('../features/banned/BannedList.tsx'), 'BannedList'),
  '/flapping-detect': lazyRouteComponent(() => import('../features/flapping/FlappingSettings.tsx'), 'FlappingSettings'),
  '/api-key': lazyRouteComponent(() => import('../features/apiKeys/ApiKeyList.tsx'), 'ApiKeyList'),
  '/authorization/list': lazyRouteComponent(() => import('../features/authz/AuthzList.tsx'), 'AuthzList'),
  '/authorization/create': lazyRouteComponent(() => import('../features/authz/AuthzCreate.tsx'), 'AuthzCreate'),
  '/authorization/detail/$type': lazyRouteComponent(() => import('../features/authz/AuthzDetail.tsx'), 'AuthzDetail'),
  '/users': lazyRouteComponent(() => import('../features/users/UserList.tsx'), 'UserList'),
  '/authentication/list': lazyRouteComponent(() => import('../features/authn/AuthnList.tsx'), 'AuthnList'),
  '/authentication/create': lazyRouteComponent(() => import('../features/authn/AuthnCreate.tsx'), 'AuthnCreate'),
  '/authentication/detail/$id': lazyRouteComponent(() => import('../features/authn/AuthnDetail.tsx'), 'AuthnDetail'),
  '/monitoring/integration': lazyRouteComponent(() => import('../features/monitoringIntegration/MonitoringIntegration.tsx'), 'MonitoringIntegration'),
  '/settings': lazyRouteComponent(() => import('../features/settings/SettingsPage.tsx'), 'SettingsPage'),
}
