// The spec's operations whose REST API exists in the embedded server, each held against the
// command that performs it. A new command must be added here with its operation, and an
// operation here without its command fails: later issues add their areas the same way.
import { describe, expect, it } from 'vitest'
import { allCommands } from '../commands/index.ts'
import { screens } from '../commands/routes.ts'

/** Operation (as the spec or issue names it) -> command id. */
const operations: Record<string, string> = {
  // Issue 2: the walking skeleton.
  'kick out a client (clear its session)': 'client.kick',
  'logout': 'session.logout',
  'change language': 'settings.language',
  'change theme': 'settings.theme',
  'sync theme with the OS': 'settings.syncOsTheme',
  ...Object.fromEntries(screens.map((screen) => [`go to ${screen.path}`, `go.${screen.id}`])),

  // Issue 3: broker features and their REST API.
  'ban a client id, username or address until a time (POST /banned)': 'banned.create',
  'lift a ban (DELETE /banned/{as}/{who})': 'banned.delete',
  'clear all bans (DELETE /banned)': 'banned.clear',
  'flapping detection settings (flapping_detect)': 'flapping.update',
  'delete a retained message (DELETE /mqtt/retainer/message/{topic})': 'retained.delete',
  'retainer settings (PUT /mqtt/retainer)': 'retainer.update',
  'clear every retained message (DELETE /mqtt/retainer/messages)': 'retained.clear',
  'delete a delayed message (DELETE /mqtt/delayed/messages/{node}/{msgid})': 'delayed.delete',
  'delayed publish settings (PUT /mqtt/delayed)': 'delayed.update',
  'publish a message (POST /publish)': 'message.publish',
  'subscribe a client (POST /clients/{id}/subscribe)': 'client.subscribe',
  'unsubscribe a client (POST /clients/{id}/unsubscribe)': 'client.unsubscribe',
  'add a topic rewrite rule (PUT /mqtt/topic_rewrite)': 'topicRewrite.add',
  'remove a topic rewrite rule (PUT /mqtt/topic_rewrite)': 'topicRewrite.remove',
  'add an auto-subscribe topic (PUT /mqtt/auto_subscribe)': 'autoSubscribe.add',
  'remove an auto-subscribe topic (PUT /mqtt/auto_subscribe)': 'autoSubscribe.remove',
  'MQTT general settings (PUT /configs/mqtt)': 'mqtt.update',
  'MQTT session settings of the global zone (PUT /configs/global_zone)': 'zone.update',
  'system topic settings (PUT /configs/sys_topics)': 'sysTopics.update',

  // Issue 14: the MQTT settings screens' forms, rule and topic edits.
  'MQTT general settings, every field a form field (PUT /configs/global_zone)': 'mqttGeneral.update',
  'MQTT session settings, every field a form field (PUT /configs/global_zone)': 'mqttSession.update',
  'edit a topic rewrite rule (PUT /mqtt/topic_rewrite)': 'topicRewrite.edit',
  'reorder the topic rewrite rules (PUT /mqtt/topic_rewrite)': 'topicRewrite.move',
  'edit an auto-subscribe topic (PUT /mqtt/auto_subscribe)': 'autoSubscribe.edit',

  // Issue 4: API keys (the API key screen is a later issue; GET /api_key and /api_key/{name} feed completion).
  'create an API key, its secret shown once (POST /api_key)': 'apiKey.create',
  'change an API key\'s note, expiry or state (PUT /api_key/{name})': 'apiKey.update',
  'enable an API key (PUT /api_key/{name} enable=true)': 'apiKey.enable',
  'disable an API key (PUT /api_key/{name} enable=false)': 'apiKey.disable',
  'delete an API key (DELETE /api_key/{name})': 'apiKey.delete',

  // Issue 11: dashboard users; issue 13 their screen and the password change.
  'add a dashboard user (POST /users)': 'user.create',
  'change a dashboard user\'s description (PUT /users/{username})': 'user.update',
  'delete a dashboard user, not the default one nor yourself (DELETE /users/{username})': 'user.delete',
  "change a dashboard user's password, ending their logins (POST /users/{username}/change_pwd)": 'user.changePassword',

  // Issue 13: MQTT authentication (the screens are a later issue).
  'enable an authenticator (PUT /authentication/{id} enable=true)': 'authn.enable',
  'disable an authenticator (PUT /authentication/{id} enable=false)': 'authn.disable',
  'move an authenticator: front, rear, before or after another (PUT /authentication/{id}/position/{position})': 'authn.move',
  'delete an authenticator and its users (DELETE /authentication/{id})': 'authn.delete',
  'add a user to the built-in database (POST /authentication/{id}/users)': 'authn.addUser',
  'delete a user of the built-in database (DELETE /authentication/{id}/users/{user_id})': 'authn.deleteUser',
  'create an authenticator (POST /authentication)': 'authn.create',
  "change an authenticator's settings (PUT /authentication/{id})": 'authn.update',
  "change a built-in database user's password or superuser flag (PUT /authentication/{id}/users/{user_id})": 'authn.updateUser',
  'import users from a CSV or JSON file (POST /authentication/{id}/import_users)': 'authn.importUsers',

  // Issue 4: the command history and the script view (browser only).
  'show the command history': 'history.show',
  'copy a range of the history as a script': 'history.copy',
  'clear the command history': 'history.clear',
  'open the script view': 'script.open',

  // Issue 5: the WebSocket test client (browser only: its connections live in the page).
  'test client: connect (settings given override the saved ones)': 'testclient.connect',
  'test client: cancel a connection attempt': 'testclient.cancel',
  'test client: disconnect': 'testclient.disconnect',
  'test client: subscribe with MQTT 5 options': 'testclient.subscribe',
  'test client: unsubscribe': 'testclient.unsubscribe',
  'test client: publish, with count and interval for a burst': 'testclient.publish',
  'test client: open another connection (up to 6 besides the default)': 'testclient.new',
  'test client: close a connection tab': 'testclient.remove',
  'test client: clear the received and published messages': 'testclient.clear',
  'test client: pause the message lists': 'testclient.pause',
  'test client: resume the message lists': 'testclient.resume',
  'test client: how many messages each connection keeps': 'testclient.keep',

  // Issue 6: slow subscriptions.
  'slow subscription settings (PUT /slow_subscriptions/settings)': 'slowSubs.update',
  'clear the slow subscription records, with confirmation (DELETE /slow_subscriptions)': 'slowSubs.clear',

  // Issue 6: topic metrics and alarms (EMQX 5 has no manual alarm deactivation: alarms clear with their condition).
  'register a topic for topic metrics, no wildcards (POST /mqtt/topic_metrics)': 'topicMetrics.add',
  'stop counting a topic (DELETE /mqtt/topic_metrics/{topic})': 'topicMetrics.remove',
  'reset one topic\'s metrics or all of them (PUT /mqtt/topic_metrics {action: reset})': 'topicMetrics.reset',
  'clear the alarm history (DELETE /alarms)': 'alarm.clear',
  'deactivate an alarm by hand (POST /alarms/force_deactivate)': 'alarm.deactivate',
  'alarm settings: CPU and memory checks and watermarks (PUT /configs/sysmon)': 'sysmon.update',
  'alarm settings: actions, history size and validity (PUT /configs/alarm)': 'alarm.update',

  // Issue 6: the dashboard monitor's stored samples.
  'clear the dashboard monitor data, with confirmation (DELETE /monitor)': 'monitor.clear',

  // Issue 4: keyboard help.
  'show every keyboard shortcut (the ? sheet)': 'help.shortcuts',

  // Issue 14, part 5: the cluster, data backups and telemetry.
  'invite a node to the cluster, waiting or in the background (PUT /cluster/{node}/invite(_async))': 'cluster.invite',
  'force a node out of the cluster (DELETE /cluster/{node}/force_leave)': 'cluster.forceLeave',
  'export a data backup, all or some table sets and roots (POST /data/export)': 'backup.export',
  'upload a data backup archive (POST /data/files)': 'backup.upload',
  'import a data backup, with confirmation (POST /data/import)': 'backup.import',
  'download a data backup, saved by the browser (GET /data/files/{filename})': 'backup.download',
  'delete a data backup (DELETE /data/files/{filename})': 'backup.delete',
  'turn telemetry on or off (PUT /telemetry/status)': 'telemetry.update',
  'change the node-level rates, refused while kept at the defaults (PUT /configs/limiter)': 'limiter.update',
  'change the dashboard settings: the login lifetime and the kept rest (PUT /configs/dashboard)': 'dashboard.update',

  // Issue 13: MQTT authorization (the screens are a later part).
  'authorization settings: no_match, deny_action, cache (PUT /authorization/settings)': 'authz.settings',
  'add an authorization source at the front (POST /authorization/sources)': 'authz.createSource',
  "change the file source's acl.conf (PUT /authorization/sources/file rules)": 'authz.updateFile',
  "change the built-in database source's max_rules (PUT /authorization/sources/built_in_database)": 'authz.updateBuiltIn',
  "change the http source's url, method, timeouts and pool (PUT /authorization/sources/http)": 'authz.updateHttp',
  'enable an authorization source (PUT /authorization/sources/{type} enable=true)': 'authz.enableSource',
  'disable an authorization source (PUT /authorization/sources/{type} enable=false)': 'authz.disableSource',
  'move an authorization source (POST /authorization/sources/{type}/move)': 'authz.moveSource',
  'delete an authorization source (DELETE /authorization/sources/{type})': 'authz.deleteSource',
  'add a built-in authorization rule for a client id, username or all (POST/PUT .../built_in_database/rules/...)': 'authz.addRule',
  'change one built-in authorization rule (PUT/POST .../built_in_database/rules/...)': 'authz.updateRule',
  'delete one built-in authorization rule (PUT/POST .../built_in_database/rules/...)': 'authz.deleteRule',
  'delete the built-in rules of a client id, username or all (DELETE .../built_in_database/rules/...)': 'authz.deleteRules',
  'clear the authorization cache (DELETE /authorization/cache)': 'authz.clearCache',
  'which source and rule decide for a client, without one connecting (POST /authorization/check, this console\'s own)': 'authz.check',
  'try credentials against the authentication chain (POST /authentication/test, this console\'s own)': 'authn.test',

  // Issue 14: logging.
  'log file handler: level, format, time, path and rotation; a new name adds one (PUT /configs/log file.<name>)': 'log.update',
  'console log handler settings (PUT /configs/log console)': 'log.console.update',
  'set the level of every enabled log handler (PUT /configs/log)': 'log.level',
  // Issue 14: listeners.
  'create a listener (POST /listeners/{id})': 'listener.create',
  'change a listener (PUT /listeners/{id})': 'listener.update',
  'delete a listener, closing its connections (DELETE /listeners/{id})': 'listener.delete',
  'start a listener (POST /listeners/{id}/start)': 'listener.start',
  'stop a listener, closing its connections (POST /listeners/{id}/stop)': 'listener.stop',
  'restart a listener (POST /listeners/{id}/restart)': 'listener.restart',
  'enable a listener (PUT /listeners/{id} enable=true)': 'listener.enable',
  'disable a listener, closing its connections (PUT /listeners/{id} enable=false)': 'listener.disable',
  // Issue 14: monitoring integration.
  'basic auth on the Prometheus scrape endpoints (PUT /prometheus enable_basic_auth)': 'prometheus.update',
  'push to a Pushgateway: enable, url, interval, job name, headers (PUT /prometheus push_gateway)': 'prometheus.pushGateway',
  'OpenTelemetry exporter, metrics, logs and traces (PUT /opentelemetry)': 'opentelemetry.update',
  'e2e tracing whitelists of client ids and topics (POST/DELETE /opentelemetry/whitelist/{type})': 'opentelemetry.whitelist',
  // Issue 15: rules of the rule engine.
  'create a rule from its SQL and outputs (POST /rules)': 'rule.create',
  'change a rule, merging the given keys (PUT /rules/{id})': 'rule.update',
  'delete a rule (DELETE /rules/{id})': 'rule.delete',
  'enable a rule (PUT /rules/{id} enable=true)': 'rule.enable',
  'disable a rule (PUT /rules/{id} enable=false)': 'rule.disable',
  "reset a rule's metrics (PUT /rules/{id}/metrics/reset)": 'rule.resetMetrics',
  // Issue 15: the rule SQL workbench.
  'run a rule SQL or a saved rule against one event (POST /rule_test, POST /rules/{id}/test)': 'rule.test',
  // Issue 15: develop a rule against live traffic (a temporary rule republishing to a private topic).
  'run rule SQL against the next live messages or events, unsaved (POST/DELETE /rules, MQTT subscribe)': 'rule.tap',

  // Issue 16: data integration, one factory for connectors, actions and sources (commands/integration.ts).
  'list connectors (GET /connectors)': 'connectors.list',
  'create a connector from its type, name and JSON config (POST /connectors)': 'connector.create',
  'change a connector, the whole config (PUT /connectors/{id})': 'connector.update',
  "test a connector's connectivity without saving (POST /connectors_probe)": 'connector.test',
  'enable a connector (PUT /connectors/{id}/enable/true)': 'connector.enable',
  'disable a connector (PUT /connectors/{id}/enable/false)': 'connector.disable',
  'start (reconnect) a connector (POST /connectors/{id}/start)': 'connector.start',
  'delete a connector (DELETE /connectors/{id})': 'connector.delete',
  'list actions (GET /actions)': 'actions.list',
  'create an action on a connector (POST /actions)': 'action.create',
  'change an action, the whole config (PUT /actions/{id})': 'action.update',
  "test an action's connectivity without saving (POST /actions_probe)": 'action.test',
  'enable an action (PUT /actions/{id}/enable/true)': 'action.enable',
  'disable an action (PUT /actions/{id}/enable/false)': 'action.disable',
  'start an action (POST /actions/{id}/start)': 'action.start',
  "reset an action's metrics (PUT /actions/{id}/metrics/reset)": 'action.resetMetrics',
  'delete an action, optionally out of its rules first (DELETE /actions/{id}?also_delete_dep_actions)': 'action.delete',
  'list sources (GET /sources)': 'sources.list',
  'create a source on a connector (POST /sources)': 'source.create',
  'change a source, the whole config (PUT /sources/{id})': 'source.update',
  "test a source's connectivity without saving (POST /sources_probe)": 'source.test',
  'enable a source (PUT /sources/{id}/enable/true)': 'source.enable',
  'disable a source (PUT /sources/{id}/enable/false)': 'source.disable',
  'start a source (POST /sources/{id}/start)': 'source.start',
  "reset a source's metrics (PUT /sources/{id}/metrics/reset)": 'source.resetMetrics',
  'delete a source, optionally out of its rules first (DELETE /sources/{id}?also_delete_dep_actions)': 'source.delete',
  // Issue 16: webhooks, each an HTTP connector, an HTTP action and a rule named <name>_WH_D.
  'list webhooks (GET /connectors, GET /actions, GET /rules joined)': 'webhooks.list',
  'create a webhook: connector, action and rule, undone when a part is refused (POST /connectors, /actions, /rules)': 'webhook.create',
  'change a webhook (PUT /connectors/{id}, /actions/{id}, /rules/{id})': 'webhook.update',
  'enable a webhook (PUT /connectors/{id}/enable/true, /actions/{id}/enable/true, PUT /rules/{id} enable=true)': 'webhook.enable',
  'disable a webhook (PUT /rules/{id} enable=false, /actions/{id}/enable/false, /connectors/{id}/enable/false)': 'webhook.disable',
  'delete a webhook: rule, then action, then connector (DELETE /rules/{id}, /actions/{id}, /connectors/{id})': 'webhook.delete',

  // Issue 17: the read commands the terminal prompt prints as tables (branch t-prompt).
  'list clients (GET /clients)': 'clients.list',
  'list subscriptions (GET /subscriptions)': 'subscriptions.list',
  'list topics (GET /topics)': 'topics.list',
  'list bans (GET /banned)': 'banned.list',
  'list authenticators (GET /authentication)': 'authn.list',
  'list authorization sources (GET /authorization/sources)': 'authz.list',
  'list listeners (GET /listeners)': 'listeners.list',
  'list retained messages (GET /mqtt/retainer/messages)': 'retained.list',
  'list alarms (GET /alarms)': 'alarms.list',
  'list rules (GET /rules)': 'rules.list',
  'list nodes (GET /nodes)': 'nodes.list',

  // Issue 17: log traces.
  'create a log trace (POST /trace)': 'trace.create',
  'stop a log trace (PUT /trace/{name}/stop)': 'trace.stop',
  'delete a log trace (DELETE /trace/{name})': 'trace.delete',
  'delete every log trace (DELETE /trace)': 'trace.deleteAll',
  'list log traces (GET /trace)': 'traces.list',
  'download a trace log (GET /trace/{name}/download)': 'trace.download',
  'follow a trace log (GET /trace/{name}/log by position)': 'trace.follow',
}

/**
 * Operations of issue 3 that only read (lists, details, settings forms' initial values): screens
 * show them through the API modules; they are not commands. Named here so the table is complete.
 */
const readOnly = [
  'GET /banned',
  'GET /mqtt/retainer, GET /mqtt/retainer/messages, GET /mqtt/retainer/message/{topic}',
  'GET /mqtt/delayed, GET /mqtt/delayed/messages, GET /mqtt/delayed/messages/{node}/{msgid}',
  'GET /topics',
  'GET /clients/{id}/mqueue_messages, GET /clients/{id}/inflight_messages',
  'GET /configs/mqtt, GET /configs/global_zone, GET /configs/sys_topics, GET /mqtt/topic_rewrite, GET /mqtt/auto_subscribe',
  'POST /publish/bulk (scripts publish many lines through message.publish)',
  'GET /api_key, GET /api_key/{name}',
  // Issue 6: the dashboard monitor (overview charts and current figures).
  'GET /monitor, GET /monitor/nodes/{node}, GET /monitor_current, GET /monitor_current/nodes/{node}',
  'Issue 6: GET /slow_subscriptions, GET /slow_subscriptions/settings',
  'Issue 6: GET /mqtt/topic_metrics, GET /mqtt/topic_metrics/{topic}, GET /alarms?activated=true|false, GET /configs/sysmon, GET /configs/alarm',
  'Issue 14: GET /configs/log',
  'Issue 14: GET /prometheus, GET /opentelemetry, GET /opentelemetry/whitelist/{type}; the scrape endpoints GET /prometheus/{stats,auth,data_integration} are read by Prometheus, not the console',
  'Issue 15: GET /rules, GET /rules/{id}, GET /rules/{id}/metrics',
  'Issue 13: GET /authorization/settings, GET /authorization/sources, GET /authorization/sources/{type}, GET .../{type}/status, GET .../built_in_database/rules/{clients,users,all}',
]

const ids = new Set(allCommands.map((command) => command.id))

describe('command coverage of the spec operations', () => {
  it('has a command for every operation in the table', () => {
    const missing = Object.entries(operations).filter(([, id]) => !ids.has(id))
    expect(missing).toEqual([])
  })

  it('lists every registered command against an operation', () => {
    const mapped = new Set(Object.values(operations))
    expect(allCommands.map((c) => c.id).filter((id) => !mapped.has(id))).toEqual([])
    expect(readOnly.length).toBeGreaterThan(0)
  })

  it('gives every dangerous command a describe text for its confirmation', () => {
    const dangerous = allCommands.filter((c) => c.danger)
    expect(dangerous.map((c) => c.id)).toEqual(
      expect.arrayContaining(['client.kick', 'client.unsubscribe', 'banned.delete', 'banned.clear', 'retained.delete', 'delayed.delete']),
    )
    for (const command of dangerous) expect(command.describe, command.id).toBeTypeOf('function')
  })

  it('marks deletes, clears and unsubscribes as dangerous', () => {
    for (const command of allCommands)
      if (/\.(delete|clear|remove|unsubscribe|kick)$/.test(command.id)) expect(command.danger, command.id).toBe(true)
  })
})
