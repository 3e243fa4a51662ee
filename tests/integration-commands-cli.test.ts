// The data integration commands from the emqx-console CLI, as a runbook script runs them: a
// connector and an action created from JSON configs written in single quotes, the lists printed as
// JSON rows with --json and as compact JSON for people, the action deleted only with --yes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli } from './support/cli.ts'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { serverPerSuite } from './support/server.ts'

const s = serverPerSuite()
const login = () => ['--url', s.t.url, '--username', 'admin', '--password', 'public']
let target: HttpTarget

beforeAll(async () => {
  target = await startHttpTarget()
})
afterAll(async () => {
  await target.close()
})

describe('integration commands in the CLI', () => {
  it('creates from a script, lists as JSON rows, and deletes after --yes', async () => {
    const script = [
      `connector.create http cli_hook config='{"url": "${target.url}"}'`,
      `action.create http cli_out connector=cli_hook config='{"parameters": {"path": "/in"}}'`,
      'connectors.list',
      'actions.list',
    ].join('\n')
    const result = await cli(['run', '-', ...login(), '--json'], { stdin: script })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const steps = result.json.filter((o) => o.type === 'step')
    expect(steps.map((o) => [o.command, o.status])).toEqual([
      ['connector.create', 'ok'],
      ['action.create', 'ok'],
      ['connectors.list', 'ok'],
      ['actions.list', 'ok'],
    ])
    expect(steps[2].result).toEqual([{ id: 'http:cli_hook', type: 'http', name: 'cli_hook', enable: true, status: 'connected', used_by: ['cli_out'] }])
    expect(steps[3].result).toEqual([{ id: 'http:cli_out', type: 'http', name: 'cli_out', enable: true, status: 'connected', connector: 'cli_hook', used_by: [] }])
    // No table lines in the CLI: the rows are the step's result.
    expect(result.json.filter((o) => o.type === 'live')).toEqual([])

    const people = await cli(['run', '-', ...login()], { stdin: 'actions.list\n' })
    expect(people.code).toBe(0)
    // Without --json the CLI prints the list as the other read commands print theirs: a table.
    expect(people.stdout).toMatch(/id +status +enable +connector +rules/)
    expect(people.stdout).toMatch(/http:cli_out +connected +true +cli_hook/)

    // A delete is dangerous: without --yes nothing runs.
    const refused = await cli(['run', '-', ...login(), '--json'], { stdin: 'action.delete http:cli_out\n' })
    expect(refused.code).not.toBe(0)
    expect((await s.api.get('/actions/http:cli_out')).status).toBe(200)
    const deleted = await cli(['run', '-', ...login(), '--yes', '--json'], { stdin: 'action.delete http:cli_out\nconnector.delete http:cli_hook\n' })
    expect(deleted.code).toBe(0)
    expect((await s.api.get('/actions/http:cli_out')).status).toBe(404)
    expect((await s.api.get('/connectors/http:cli_hook')).status).toBe(404)
  })
})
