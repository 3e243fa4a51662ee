// Issue 16's done-when through the console: connectors and actions for a real HTTP server, Redis,
// PostgreSQL, MySQL (MariaDB), InfluxDB and another MQTT broker (mosquitto), every one started
// here: HTTP's and Redis' made with the create screens (Test connectivity first, Redis' connector
// in the action flow's dialog), the others with a pasted palette script; a rule written in the
// console sends real messages to all of them; an MQTT source brings
// mosquitto's messages in, and a rule on `$bridges/mqtt:…` republishes them to a real subscriber.
// Then the HTTP server stops: the action's detail shows the connector disconnected with the reason
// and its queue growing; back up, the queue drains and every message arrives. A target whose Debian
// package is missing is left out here (tests/support fails it under CI instead).
import { test, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import mqtt, { type MqttClient } from 'mqtt'
import { MysqlBackend } from '../server/backends/mysql.ts'
import { PostgresBackend } from '../server/backends/postgresql.ts'
import { RedisBackend } from '../server/backends/redis.ts'
import { hasDbServer, startInfluxdb, startMariadb, startPostgres, startRedis, type DbServer } from '../tests/support/db-servers.ts'
import { HttpSink } from '../tests/support/http-sink.ts'
import { hasMosquitto, startMosquitto, type Mosquitto } from '../tests/support/mosquitto.ts'
import { apiHeaders, login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })
test.describe.configure({ timeout: 180_000 })

/** Where a rule's rows go, what the target holds so far, and how its connector and action are made. */
type Target = {
  type: string
  name: string
  /** The `n` of every message that arrived, in arrival order. */
  arrived(): Promise<number[]>
} & (
  | { /** Made with the console's create screens. */ onScreens(page: Page): Promise<void> }
  | { /** Made with palette commands from these bodies. */ connector: Record<string, unknown>; action: Record<string, unknown> }
)

const RULE_SQL = 'SELECT payload.n AS n, topic, payload FROM "e2e/di/#"'
const HEALTH = { health_check_interval: '1s' }
const stops: Array<() => Promise<unknown>> = []
const targets: Target[] = []
const httpSeen: number[] = []
const http = new HttpSink((body) => httpSeen.push(Number((JSON.parse(body) as { n: unknown }).n)))
let mosquitto: Mosquitto | undefined
let remote: MqttClient | undefined
const remoteSeen: number[] = []

const started = async <T extends { stop(): Promise<unknown> }>(start: () => Promise<T>): Promise<T> => {
  const server = await start()
  stops.push(() => server.stop())
  return server
}

async function redisTarget(): Promise<Target> {
  const db = await started(startRedis)
  const redis = new RedisBackend({ redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password })
  stops.unshift(() => redis.close())
  return {
    type: 'redis',
    name: 'e2e_redis',
    arrived: async () => ((await redis.pipeline([['LRANGE', 'e2e:msgs', '0', '-1']]))[0] as string[]).map(Number),
    // The action's create flow, its connector made in the flow's New connector dialog.
    async onScreens(page) {
      const form = await startCreate(page, 'action', /^Redis/)
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill('e2e_redis')
      await form.getByRole('button', { name: 'New connector' }).click()
      const dialog = page.getByRole('dialog', { name: 'New Redis connector' })
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('e2e_redis')
      await dialog.getByRole('textbox', { name: 'Server host' }).fill(`${db.host}:${db.port}`)
      await dialog.getByRole('textbox', { name: 'Password' }).fill(db.password)
      await quickHealthCheck(dialog)
      await testConnectivity(dialog)
      await dialog.getByRole('button', { name: 'Create' }).click()
      await expect(dialog).toHaveCount(0)
      await expect(form.getByRole('combobox', { name: 'Connector' })).toHaveValue('e2e_redis')
      await form.getByRole('textbox', { name: 'Redis command template' }).fill('RPUSH\ne2e:msgs\n${n}')
      await quickHealthCheck(form)
      await form.getByRole('button', { name: 'Create' }).click()
      await expect(page).toHaveURL(/\/rule\/actions\/redis(:|%3A)e2e_redis/)
    },
  }
}

/** The HTTP server: connector and action made with the create screens, the connector tested first. */
function httpTarget(): Target {
  return {
    type: 'http',
    name: 'e2e_http',
    arrived: async () => httpSeen,
    async onScreens(page) {
      const connector = await startCreate(page, 'connector', /^HTTP Server/)
      await connector.getByRole('textbox', { name: 'Name', exact: true }).fill('e2e_http')
      await connector.getByRole('textbox', { name: 'URL' }).fill(`${http.url}/hook`)
      await quickHealthCheck(connector)
      await testConnectivity(connector)
      await connector.getByRole('button', { name: 'Create' }).click()
      await expect(page).toHaveURL(/\/connector\/http(:|%3A)e2e_http/)

      const action = await startCreate(page, 'action', /^HTTP Server/)
      await action.getByRole('textbox', { name: 'Name', exact: true }).fill('e2e_http')
      await action.getByRole('combobox', { name: 'Connector' }).selectOption('e2e_http')
      await quickHealthCheck(action)
      await action.getByRole('button', { name: 'Create' }).click()
      await expect(page).toHaveURL(/\/rule\/actions\/http(:|%3A)e2e_http/)
    },
  }
}

/** A create flow's first step, the type picked by its card; its form. */
async function startCreate(page: Page, role: 'connector' | 'action', type: RegExp): Promise<Locator> {
  await page.goto(role === 'connector' ? '/connector/create' : '/rule/actions/create')
  await page.getByRole('radio', { name: type }).click()
  await page.getByRole('button', { name: 'Next' }).click()
  return page.getByRole('form', { name: role === 'connector' ? 'Create Connector' : 'Create Action' })
}

/** Health checks every second (Advanced settings), so a target going away shows within the spec's time. */
async function quickHealthCheck(form: Locator): Promise<void> {
  await form.getByText('Advanced settings').click()
  await form.getByRole('textbox', { name: 'Health check interval' }).fill('1')
}

async function testConnectivity(form: Locator): Promise<void> {
  await form.getByRole('button', { name: 'Test connectivity' }).click()
  await expect(form.getByRole('status')).toHaveText('Test success, your configuration works fine')
}

const SQL_INSERT = 'insert into e2e_msgs(n, topic) values (${n}, ${topic})'
const sqlLogin = (db: DbServer) => ({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password })

/** PostgreSQL or MySQL: a table the action INSERTs each message's `n` and topic into. */
async function sqlTarget(type: 'pgsql' | 'mysql'): Promise<Target> {
  const db = await started(type === 'pgsql' ? startPostgres : startMariadb)
  const backend = type === 'pgsql' ? new PostgresBackend(sqlLogin(db)) : new MysqlBackend(sqlLogin(db))
  stops.unshift(() => backend.close())
  await backend.execute('CREATE TABLE e2e_msgs (n VARCHAR(16), topic VARCHAR(255))', [])
  return {
    type,
    name: `e2e_${type}`,
    connector: { ...sqlLogin(db), resource_opts: HEALTH },
    action: { parameters: { sql: SQL_INSERT } },
    arrived: async () => (await backend.query({ text: 'SELECT n FROM e2e_msgs', params: [] }, {})).map((row) => Number((row as { n: string }).n)),
  }
}

async function influxdbTarget(): Promise<Target> {
  const db = await started(startInfluxdb)
  return {
    type: 'influxdb',
    name: 'e2e_influxdb',
    connector: { server: `${db.host}:${db.port}`, parameters: { influxdb_type: 'influxdb_api_v1', database: db.database, username: db.user, password: db.password }, resource_opts: HEALTH },
    // Points of one series at the same millisecond would be one point: the topic tells them apart.
    action: { parameters: { write_syntax: 'e2e,topic=${topic} n=${n}' } },
    arrived: async () => {
      const params = new URLSearchParams({ db: db.database, q: 'SELECT n FROM e2e', u: db.user, p: db.password })
      const answer = (await (await fetch(`http://${db.host}:${db.port}/query?${params}`)).json()) as { results: Array<{ series?: Array<{ values: unknown[][] }> }> }
      return (answer.results[0].series?.[0].values ?? []).map(([, n]) => Number(n))
    },
  }
}

async function mqttTarget(): Promise<Target> {
  mosquitto = await started(() => startMosquitto())
  remote = await mqtt.connectAsync(mosquitto.url, { clientId: 'e2e-di-remote', reconnectPeriod: 0 })
  remote.on('message', (topic, payload) => topic.startsWith('remote/') && remoteSeen.push(Number(payload.toString())))
  await remote.subscribeAsync('remote/#', { qos: 1 })
  return {
    type: 'mqtt',
    name: 'e2e_mqtt',
    connector: { server: `127.0.0.1:${mosquitto.port}`, resource_opts: HEALTH },
    action: { parameters: { topic: 'remote/${topic}', payload: '${n}' } },
    arrived: async () => remoteSeen,
  }
}

test.beforeAll(async () => {
  await http.up()
  stops.push(() => http.down())
  targets.push(httpTarget())
  const wanted: Array<[boolean, () => Promise<Target>, string]> = [
    [hasDbServer('redis'), redisTarget, 'Redis'],
    [hasDbServer('postgresql'), () => sqlTarget('pgsql'), 'PostgreSQL'],
    [hasDbServer('mariadb'), () => sqlTarget('mysql'), 'MySQL (MariaDB)'],
    [hasDbServer('influxdb'), influxdbTarget, 'InfluxDB'],
    [hasMosquitto(), mqttTarget, 'MQTT (mosquitto)'],
  ]
  targets.push(...(await Promise.all(wanted.filter(([installed]) => installed).map(([, start]) => start()))))
  for (const [installed, , what] of wanted) if (!installed) test.info().annotations.push({ type: 'left out', description: `${what}: its Debian package is not installed` })
})

test.afterAll(async ({ request }) => {
  await cleanUp(request)
  await remote?.endAsync()
  for (const stop of stops.reverse()) await stop()
})

/** Leaves the shared e2e server as it was: the rules, actions, sources and connectors made here go. */
async function cleanUp(request: APIRequestContext): Promise<void> {
  const headers = await apiHeaders(request)
  for (const id of ['e2e_di_out', 'e2e_di_in']) await request.delete(`/api/v5/rules/${id}`, { headers })
  for (const { type, name } of targets) await request.delete(`/api/v5/actions/${type}:${name}`, { headers })
  await request.delete('/api/v5/sources/mqtt:e2e_in', { headers })
  for (const { type, name } of targets) await request.delete(`/api/v5/connectors/${type}:${name}`, { headers })
}

/** Pastes a script into the palette through the real clipboard and runs it; every step must succeed. */
async function runScript(page: Page, lines: string[]): Promise<void> {
  await expect(page.getByRole('button', { name: 'Open the command palette' })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await expect(palette.getByPlaceholder('Type a command or search…')).toBeFocused()
  await page.evaluate((text) => navigator.clipboard.writeText(text), lines.join('\n'))
  await page.keyboard.press('ControlOrMeta+v')
  const editor = palette.getByRole('textbox', { name: 'Script: one command per line' })
  await expect(editor).toHaveValue(lines.join('\n'))
  await expect(palette.getByRole('list', { name: 'Plan' }).getByRole('listitem')).toHaveCount(lines.length)
  await editor.press('Control+Enter')
  await expect(palette.getByRole('status')).toHaveText(`All ${lines.length} steps succeeded`, { timeout: 30_000 })
  await page.keyboard.press('Escape')
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
}

/** A script argument holding JSON: single quotes keep its double quotes and `${…}` as written. */
const json = (value: unknown) => `'${JSON.stringify(value)}'`

/** The SQL workbench holds a textarea or a CodeMirror editor: either takes the text as typed. */
async function writeSql(page: Page, sql: string) {
  const editor = page.locator('.rules-form-sql').locator('textarea, .cm-content').first()
  await editor.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.insertText(sql)
}

/** The detail's row of status on the one node, and a metric card's value. */
const node = (page: Page) => page.locator('tr[data-node="emqx@127.0.0.1"]')
const metric = (page: Page, key: string) => page.locator(`[data-metric="${key}"] dd`)
const sorted = (ns: number[]) => [...ns].sort((a, b) => a - b)
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i)

test('a rule made in the console feeds HTTP, Redis, PostgreSQL, MySQL, InfluxDB and MQTT; a source brings messages in; a stopped target queues and drains', async ({ page }) => {
  await login(page, '/rule/rules')

  for (const target of targets) {
    if ('onScreens' in target) await test.step(`${target.type}: connector and action made with the create screens`, () => target.onScreens(page))
  }

  await test.step('the other connectors and actions made with palette commands (a pasted script)', async () => {
    await runScript(
      page,
      targets.flatMap((target) =>
        'connector' in target
          ? [
              `connector.create ${target.type} ${target.name} config=${json(target.connector)}`,
              `action.create ${target.type} ${target.name} connector=${target.name} config=${json({ ...target.action, resource_opts: HEALTH })}`,
            ]
          : [],
      ),
    )
  })

  await test.step('a rule written on the console form sends to every action', async () => {
    await page.goto('/rule/rules/create')
    const form = page.getByRole('form', { name: 'Create Rule' })
    await form.getByRole('textbox', { name: 'Rule ID' }).fill('e2e_di_out')
    await writeSql(page, RULE_SQL)
    for (const [i, { type, name }] of targets.entries()) {
      await form.getByRole('button', { name: '+ Action' }).click()
      await form.getByRole('textbox', { name: 'Action ID' }).nth(i).fill(`${type}:${name}`)
    }
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/rule\/rules$/)
    await expect(page.getByRole('row').filter({ hasText: 'e2e_di_out' })).toContainText('e2e/di/#')
  })

  const device = await connectClient('e2e-di-device')
  try {
    await test.step('real messages arrive at every target', async () => {
      for (const n of range(1, 4)) await device.publishAsync(`e2e/di/${n}`, JSON.stringify({ n }), { qos: 1 })
      for (const target of targets) {
        await expect.poll(async () => sorted(await target.arrived()), { message: `${target.type} received`, timeout: 20_000 }).toEqual([1, 2, 3])
      }
    })

    if (mosquitto) await test.step('an MQTT source brings mosquitto messages to a rule that republishes them', async () => {
      await runScript(page, [
        `source.create mqtt e2e_in connector=e2e_mqtt config=${json({ parameters: { topic: 'in/#', qos: 1 } })}`,
        `rule.create 'SELECT * FROM "$bridges/mqtt:e2e_in"' id=e2e_di_in republish='local/\${topic}' payload='\${payload} via bridge'`,
      ])
      const listener = await connectClient('e2e-di-listener')
      try {
        await listener.subscribeAsync('local/#', { qos: 1 })
        const republished = new Promise<{ topic: string; payload: string }>((resolve) => listener.once('message', (topic, payload) => resolve({ topic, payload: payload.toString() })))
        await remote!.publishAsync('in/kitchen', 'hello', { qos: 1 })
        expect(await republished).toEqual({ topic: 'local/in/kitchen', payload: 'hello via bridge' })
      } finally {
        await listener.endAsync()
      }
    })

    await test.step('the HTTP server stops: the action shows disconnected with the reason and its queue growing', async () => {
      await http.down()
      await page.goto('/rule/actions/http:e2e_http')
      await expect(node(page)).toContainText(/Disconnected\s*econnrefused/, { timeout: 20_000 })
      for (const n of range(4, 9)) await device.publishAsync(`e2e/di/${n}`, JSON.stringify({ n }), { qos: 1 })
      await expect(metric(page, 'queuing')).toHaveText('5', { timeout: 15_000 })
      for (const n of range(9, 14)) await device.publishAsync(`e2e/di/${n}`, JSON.stringify({ n }), { qos: 1 })
      await expect(metric(page, 'queuing')).toHaveText('10', { timeout: 15_000 })
      await expect(metric(page, 'success')).toHaveText('3')
    })

    await test.step('back up, the queue drains and nothing is lost', async () => {
      await http.up()
      await expect.poll(async () => sorted(httpSeen), { timeout: 20_000 }).toEqual(range(1, 14))
      await expect(metric(page, 'queuing')).toHaveText('0', { timeout: 15_000 })
      await expect(metric(page, 'success')).toHaveText('13')
      await expect(node(page)).toContainText('Connected')
      for (const target of targets.slice(1)) await expect.poll(async () => sorted(await target.arrived()), { timeout: 20_000 }).toEqual(range(1, 14))
    })
  } finally {
    await device.endAsync()
  }
})
