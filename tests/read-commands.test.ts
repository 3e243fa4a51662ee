// Read commands, written as script lines and run against the real server with real mqtt.js clients,
// printed as the terminal and the CLI print them: compact tables fitted to a width.
import { describe, expect, it } from 'vitest'
import type { AnyCommand } from '../commands/define.ts'
import { cut, fitWidths, renderTable, type TableData } from '../commands/format/table.ts'
import { executePlan } from '../commands/script/execute.ts'
import { planScript } from '../commands/script/plan.ts'
import { text } from '../cli/output.ts'
import { consoleSuite } from './support/commands.ts'
import { cli } from './support/cli.ts'

describe('compact tables', () => {
  const table: TableData = {
    columns: ['clientid', 'topic'],
    rows: [
      ['sensor-1', 'a/very/long/topic/name/that/goes/on/and/on'],
      ['evil\x1b[2J', null],
    ],
    total: 12,
  }

  it('fit the width, cut long values with …, escape control characters and count rows', () => {
    const lines = renderTable(table, { width: 30 }, text)
    expect(lines[0]).toBe('clientid   topic')
    expect(lines[1]).toBe('sensor-1   a/very/long/topic/…')
    expect(lines[2]).toBe('evil\\e[2J')
    expect(lines[3]).toBe('rows: 2 of 12')
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(30)
  })

  it('shrink the widest column first and never below a few characters', () => {
    expect(fitWidths([10, 30, 5], 40)).toEqual([10, 21, 5])
    expect(fitWidths([10, 10], 5)).toEqual([4, 4])
    // Past a comfortable width, columns on the right are left out before any is cut further.
    expect(fitWidths([10, 30, 30, 30], 50)).toEqual([10, 30])
  })

  it('say which columns were left out', () => {
    const lines = renderTable({ columns: ['id', 'one', 'two', 'three'], rows: [['x'.repeat(30), 'y'.repeat(30), 'z'.repeat(30), 'w']] }, { width: 50 }, text)
    expect(lines.at(-1)).toBe('rows: 1 · not shown: two, three (widen the pane)')
    expect(cut('abcdef', 4)).toBe('abc…')
    expect(cut('abc', 4)).toBe('abc')
  })

  it('count East Asian characters as two cells, so Chinese lines up', () => {
    const lines = renderTable({ columns: ['名称', 'n'], rows: [['高内存', 1], ['cpu', 2]] }, { width: 40 }, text)
    expect(lines.slice(0, 3)).toEqual(['名称    n', '高内存  1', 'cpu     2'])
    expect(cut('反向搜索', 5)).toBe('反向…')
  })

  it('colour the header for a terminal', () => {
    const lines = renderTable({ columns: ['a'], rows: [] }, { width: 20, colour: true }, text)
    expect(lines).toEqual(['\x1b[1ma\x1b[0m', '\x1b[90mrows: 0\x1b[0m'])
  })
})

describe('read commands against the server', () => {
  const suite = consoleSuite()

  /** Runs one script line as the prompt does and answers the command and its result. */
  async function read(line: string): Promise<{ command: AnyCommand; result: unknown; lines: string[] }> {
    const plan = planScript(line)
    if (!plan.ok) throw new Error(JSON.stringify(plan.errors))
    const run = await executePlan(plan, { api: suite.api })
    const [step] = run.results
    if (step.status !== 'ok') throw new Error(`${line}: ${JSON.stringify(step.error)}`)
    const command = step.step.command
    expect(command.readOnly).toBe(true)
    expect(command.changes).toBeUndefined()
    return { command, result: step.result, lines: renderTable(command.table!(step.result as never)!, { width: 140 }, text) }
  }

  it('clients.list filters by conn_state and prints a row per client', async () => {
    await suite.ts.connect({ clientId: 'sensor-1', username: 'ops' })
    await suite.ts.connect({ clientId: 'sensor-2' })
    const { lines, result } = await read('clients.list conn_state=connected')
    expect((result as { data: unknown[] }).data).toHaveLength(2)
    expect(lines[0]).toMatch(/^clientid +username +address +state/)
    expect(lines.find((l) => l.startsWith('sensor-1'))).toMatch(/sensor-1 +ops +127\.0\.0\.1:\d+ +connected +MQTT 4/)
    expect(lines.at(-1)).toBe('rows: 2')
    const one = await read('clients.list like_clientid=sensor-2 limit=1')
    expect(one.lines.at(-1)).toBe('rows: 1')
  })

  it('subscriptions.list and topics.list filter by topic', async () => {
    const client = await suite.ts.connect({ clientId: 'sub-1' })
    await client.subscribeAsync({ 'plant/+/temp': { qos: 1 }, 'other/x': { qos: 0 } })
    const subs = await read('subscriptions.list topic=plant/+/temp')
    expect(subs.lines[1]).toMatch(/^sub-1 +plant\/\+\/temp +1 /)
    expect(subs.lines.at(-1)).toBe('rows: 1')
    const topics = await read('topics.list')
    expect(topics.lines.slice(1, -1).map((l) => l.split(/ +/)[0]).sort()).toEqual(['other/x', 'plant/+/temp'])
  })

  it('retained.list, banned.list, alarms.list, rules.list', async () => {
    const publisher = await suite.ts.connect({ clientId: 'pub-1' })
    await publisher.publishAsync('status/line-1', 'up', { qos: 1, retain: true })
    const retained = await read('retained.list topic=status/#')
    expect(retained.lines[1]).toMatch(/^status\/line-1 +1 +pub-1/)

    await suite.api.banned.create({ as: 'clientid', who: 'bad-actor', reason: 'flood' })
    const bans = await read('banned.list')
    expect(bans.lines.find((l) => l.includes('bad-actor'))).toMatch(/^clientid +bad-actor +flood/)
    await suite.api.banned.delete('clientid', 'bad-actor')

    const alarms = await read('alarms.list activated=false')
    expect(alarms.lines[0]).toMatch(/^name +message +activate_at/)

    await suite.api.rules.create({ id: 'rule_list_1', sql: 'SELECT * FROM "t/#"', actions: [{ function: 'console' }], enable: false, description: 'for the list' })
    const rules = await read('rules.list enable=false')
    expect(rules.lines[1]).toMatch(/^rule_list_1 +\S* +false +t\/# +console +for the list/)
    await suite.api.rules.delete('rule_list_1')
  })

  it('nodes.list, listeners.list, authn.list and authz.list take no arguments', async () => {
    const nodes = await read('nodes.list')
    expect(nodes.lines[1]).toMatch(/^emqx@\S+ +running/)
    const listeners = await read('listeners.list')
    expect(listeners.lines.find((l) => l.startsWith('tcp:default'))).toMatch(/tcp:default +tcp +\S+:\d+ +true +true/)
    const authn = await read('authn.list')
    expect(authn.lines[0]).toMatch(/^id +mechanism +backend +enable/)
    const authz = await read('authz.list')
    expect(authz.lines[0]).toMatch(/^type +enable/)
    expect(planScript('nodes.list extra=1').ok).toBe(false)
  })

  it('bad filter values are refused by the plan, before anything runs', () => {
    const plan = planScript('clients.list conn_state=sleeping\nsubscriptions.list qos=3\nclients.list limit=0')
    expect(plan.ok).toBe(false)
    if (!plan.ok) expect(plan.errors.map((e) => `${e.line}:${e.arg}:${e.key}`)).toEqual(['1:conn_state:err.oneOf', '2:qos:err.oneOf', '3:limit:err.range'])
  })

  it('the CLI prints the table under the step, and the raw rows with --json', async () => {
    await suite.ts.connect({ clientId: 'cli-seen' })
    const login = ['--url', suite.ts.url, '--username', 'admin', '--password', 'public']
    const human = await cli(['run', '-', ...login], { stdin: 'clients.list conn_state=connected\n' })
    expect(human.code).toBe(0)
    const lines = human.stdout.split('\n')
    const step = lines.findIndex((l) => l.startsWith('ok ') && l.includes('clients.list'))
    expect(lines[step]).not.toContain('{')
    expect(lines[step + 1]).toMatch(/^  clientid +username +address/)
    expect(lines[step + 2]).toMatch(/^  cli-seen /)
    expect(lines[step + 3]).toBe('  rows: 1')
    const json = await cli(['run', '-', '--json', ...login], { stdin: 'clients.list conn_state=connected\n' })
    const result = json.json.find((o) => o.type === 'step')?.result
    expect(result.data.map((c: { clientid: string }) => c.clientid)).toEqual(['cli-seen'])
    expect(result.meta.count).toBe(1)
  })
})
