// The forms' values as the commands their buttons run, against the real server: a new HTTP
// connector's form at its defaults with a URL is tested (failing with the reason against a closed
// port) and created; its settings form, filled from the server's answer and edited, updates it and
// keeps what the form does not show; an action's form with its connector; a duplicate's form; a
// type without a form edited as JSON, its masked secret kept.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CommandError } from '../commands/commandError.ts'
import { CONNECTOR, NAME, RAW, configOfForm, initialForm } from '../src/features/integration/forms/useIntegrationForm.ts'
import { duplicateName } from '../src/ui/duplicateName.ts'
import { consoleSuite, runCommand } from './support/commands.ts'
import { fixtureTarget, installFixtureType } from './support/fixture-integration.ts'
import { waitFor } from './support/server.ts'

// A type the catalogue has no form for, as an enterprise type on a real EMQX would be.
installFixtureType()
const suite = consoleSuite()
const run = (id: string, raw: Record<string, unknown>) => runCommand(suite.api, id, raw)
let http: Server
let port = 0

beforeAll(async () => {
  http = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200).end())
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  port = (http.address() as AddressInfo).port
})
afterAll(async () => {
  http.closeAllConnections()
  await new Promise((resolve) => http.close(resolve))
})

/** What the form's Save and Test hand the commands: the config built over the form's base. */
function built(start: ReturnType<typeof initialForm>, role: 'connector' | 'action', type: string, edits: Record<string, string>) {
  const values = { ...start.values, ...edits }
  const made = configOfForm(role, type, start, values)
  if ('errors' in made) throw new Error(JSON.stringify(made.errors))
  const { connector: _connector, ...config } = made.config
  return { name: values[NAME], connector: values[CONNECTOR], config }
}

describe('the forms through the commands', () => {
  it('tests a new connector (Test failed with the reason), creates it, and saves its settings keeping unknown keys', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const closedPort = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))

    const fresh = initialForm({ role: 'connector', type: 'http' })
    const failing = built(fresh, 'connector', 'http', { [NAME]: 'form_hook', url: `http://127.0.0.1:${closedPort}/x` })
    const failure = await run('connector.test', { type: 'http', name: failing.name, config: failing.config }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(CommandError)
    expect((failure as CommandError).text.key).toBe('integration.err.testFailed')
    expect(String((failure as CommandError).text.values?.reason)).not.toBe('')

    const good = built(fresh, 'connector', 'http', { [NAME]: 'form_hook', url: `http://127.0.0.1:${port}/x` })
    await run('connector.test', { type: 'http', name: good.name, config: good.config })
    await run('connector.create', { type: 'http', name: good.name, config: good.config })
    const answer = await suite.api.connectors.get('http:form_hook')
    expect(answer).toMatchObject({ url: `http://127.0.0.1:${port}/x`, pool_size: 8, connect_timeout: '15s', status: 'connected' })

    // Settings: the answer fills the form; an edit saved through connector.update changes that alone.
    const settings = initialForm({ role: 'connector', type: 'http', config: answer })
    expect(settings.values.pool_size).toBe('8')
    const edited = built(settings, 'connector', 'http', { pool_size: '4', 'resource_opts.health_check_interval': '20s' })
    await run('connector.update', { id: 'http:form_hook', config: edited.config })
    const after = await suite.api.connectors.get('http:form_hook')
    expect(after).toMatchObject({ pool_size: 4, enable_pipelining: 100, headers: answer.headers, resource_opts: { health_check_interval: '20s', start_timeout: '5s' } })
  })

  it('creates an action on a connector picked in its form, and a duplicate of it under the copy name', async () => {
    const action = built(initialForm({ role: 'action', type: 'http' }), 'action', 'http', {
      [NAME]: 'form_act',
      [CONNECTOR]: 'form_hook',
      'parameters.path': '/${clientid}',
      'parameters.method': 'put',
    })
    await run('action.test', { type: 'http', name: action.name, connector: action.connector, config: action.config })
    await run('action.create', { type: 'http', name: action.name, connector: action.connector, config: action.config })
    const stored = await suite.api.connectors.actions.get('http:form_act')
    expect(stored).toMatchObject({ connector: 'form_hook', parameters: { path: '/${clientid}', method: 'put', max_retries: 2 } })

    const copy = initialForm({ role: 'action', type: 'http', config: stored, name: duplicateName(stored.name), connector: stored.connector })
    const duplicate = built(copy, 'action', 'http', {})
    expect(duplicate.name).toBe('form_act_duplication')
    await run('action.create', { type: 'http', name: duplicate.name, connector: duplicate.connector, config: duplicate.config })
    expect(await suite.api.connectors.actions.get('http:form_act_duplication')).toMatchObject({
      connector: 'form_hook',
      parameters: stored.parameters,
      resource_opts: stored.resource_opts,
    })
  })

  it('edits a type without a form as the JSON the server answered, and saves it through the update command', async () => {
    await suite.api.connectors.create({ type: 'fixture', name: 'ee', target: 'ee', password: 'secret', resource_opts: { start_after_created: false } })
    const answer = await suite.api.connectors.get('fixture:ee')
    const start = initialForm({ role: 'connector', type: 'fixture', config: answer })
    expect(start.fields).toBeUndefined()
    const shown = JSON.parse(start.values[RAW])
    expect(shown).toMatchObject({ target: 'ee', password: '******', resource_opts: { start_after_created: false } })
    expect(shown).not.toHaveProperty('status')
    expect(configOfForm('connector', 'fixture', start, { ...start.values, [RAW]: '{ not json' })).toEqual({ errors: [{ field: RAW, key: 'err.json' }] })

    const made = configOfForm('connector', 'fixture', start, { ...start.values, [RAW]: JSON.stringify({ ...shown, description: 'from JSON' }) })
    if ('errors' in made) throw new Error('unexpected errors')
    await run('connector.update', { id: 'fixture:ee', config: made.config })
    expect(await suite.api.connectors.get('fixture:ee')).toMatchObject({ description: 'from JSON', target: 'ee', password: '******' })
    // The masked secret went back as it came: the stored one is what the connection opens with.
    await run('connector.start', { id: 'fixture:ee' })
    await waitFor(() => fixtureTarget('ee').opened.length > 0, 'the fixture connector opened')
    expect(fixtureTarget('ee').opened.at(-1)?.password).toBe('secret')
  })
})
