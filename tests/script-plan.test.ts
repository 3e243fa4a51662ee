import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import en from '../locales/en.json'
import zh from '../locales/zh.json'
import { defineCommand, type AnyCommand, type CommandContext } from '../commands/define.ts'
import { describeArgs, validateArgs } from '../commands/args.ts'
import { createRegistry, listCommands } from '../commands/registry.ts'
import { parseScript, rawArgs } from '../commands/script/parse.ts'
import { planScript, type PlanStep } from '../commands/script/plan.ts'
import { executePlan, formatScriptLine, type StepResult } from '../commands/script/execute.ts'
import { ApiError } from '../contract/api-error.ts'
import type { Api } from '../src/api/index.ts'

type Tree = { [key: string]: string | Tree }
function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined
  return typeof node === 'string' ? node : undefined
}

function plan(text: string) {
  const result = planScript(text, { target: 'cli' })
  if (!result.ok) throw new Error(`plan failed: ${JSON.stringify(result.errors)}`)
  return result.steps
}

describe('planning a script', () => {
  it('validates every line with the registry and lists the steps with danger and what they do', () => {
    const steps = plan(`
      # ban, tell, kick
      banned.create username ops-bot reason="said \\"hi\\""
      message.publish alerts/ops "ops-bot banned" qos=1 retain=true
      client.kick ops-bot   # the client too
    `)
    expect(steps.map((s) => [s.line, s.command.id, s.danger])).toEqual([
      [3, 'banned.create', false],
      [4, 'message.publish', false],
      [5, 'client.kick', true],
    ])
    expect(steps[0].args).toMatchObject({ as: 'username', who: 'ops-bot', reason: 'said "hi"' })
    expect(steps[1].args).toMatchObject({ topic: 'alerts/ops', payload: 'ops-bot banned', qos: 1, retain: true })
    expect(steps[1].raw).toEqual({ topic: 'alerts/ops', payload: 'ops-bot banned', qos: '1', retain: 'true' })
    expect(steps[2].describe).toEqual({ key: 'cmd.client.kickDescribe', values: { clientid: 'ops-bot' } })
    expect(steps[1].describe).toEqual({ key: 'cmd.message.publish' })
    expect(steps[2].text).toBe('      client.kick ops-bot')
  })

  it('reports every invalid value with its line, the column of its value and the argument', () => {
    const result = planScript('message.publish t/1 qos=3\nclient.subscribe c1 "a/#/b"\nbanned.create who=x until=soon\nclient.kick')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toEqual([
      { line: 1, column: 25, arg: 'qos', key: 'err.oneOf', values: { options: '0, 1, 2' } },
      { line: 2, column: 21, arg: 'topic', key: 'err.topicFilter' },
      { line: 3, column: 27, arg: 'until', key: expect.stringMatching(/^err\./) },
      // A missing argument points at the command it is missing from.
      { line: 4, column: 1, arg: 'clientid', key: 'err.required' },
    ])
  })

  it('reports parse errors and value errors of the same script together, in line order', () => {
    const result = planScript('client.kik a\nmessage.publish t/1 qos=9 colour=red\nclient.kick "x')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.map((e) => [e.line, e.arg ?? '', e.key])).toEqual([
      [1, '', 'script.err.unknownCommandSuggest'],
      [2, 'qos', 'err.oneOf'],
      [2, 'colour', 'script.err.unknownArg'],
      [3, '', 'script.err.unterminatedQuote'],
    ])
  })

  it('refuses browser-only commands for the CLI and allows them in the browser', () => {
    expect(planScript('go.clients\nsettings.theme dark', { target: 'cli' })).toEqual({
      ok: false,
      errors: [
        { line: 1, column: 1, key: 'script.err.needsUi', values: { id: 'go.clients' } },
        { line: 2, column: 1, key: 'script.err.needsUi', values: { id: 'settings.theme' } },
      ],
    })
    const browser = planScript('go.clients\nsettings.theme dark')
    expect(browser.ok && browser.steps.map((s) => [s.command.id, s.args])).toEqual([
      ['go.clients', {}],
      ['settings.theme', { theme: 'dark' }],
    ])
  })

  it('marks commands that ask to confirm even when they are not dangerous', () => {
    const result = planScript('session.logout')
    expect(result.ok && result.steps[0]).toMatchObject({ danger: false, confirm: true })
  })

  it('plans an empty or comment-only script as no steps', () => {
    expect(planScript('')).toEqual({ ok: true, steps: [] })
    expect(planScript('# nothing\n\n  # still nothing\n')).toEqual({ ok: true, steps: [] })
  })

  it('has every script message in both languages', () => {
    const keys = ['unterminatedQuote', 'unknownCommand', 'unknownCommandSuggest', 'unknownArg', 'noPositional', 'tooManyPositionals', 'duplicateArg', 'needsUi']
      .map((k) => `script.err.${k}`)
      .concat(['script.warn.notFound', 'script.warn.lookupFailed'])
    for (const key of keys) {
      expect(lookup(en as Tree, key), `en ${key}`).toBeTruthy()
      expect(lookup(zh as Tree, key), `zh ${key}`).toBeTruthy()
    }
  })
})

// ——— formatScriptLine: parse(format(x)) == x for every registered command ———

/** Values tried for each argument, awkward ones first; each field takes the first its schema accepts. */
const CANDIDATES = [
  `it's "quoted" # not a comment = \\ back\\slash\n\ttab \u0001 é 中文 😀`,
  'key=value',
  '#',
  ' leading and trailing ',
  '{"k 1":"v \\"1\\"","k2":"#"}',
  '[{"key":"a","value":"b"}]',
  '{"payload_format_indicator":1,"message_expiry_interval":60,"user_properties":{"a b":"c=d"}}',
  '{}',
  'sensor-1',
  'users.csv',
  't/1',
  'a/+/b',
  '+1h',
  '2030-01-01T00:00:00Z',
  '1h30m',
  '30s',
  '1.5MB',
  'disabled',
  'infinity',
  '^a/(\\d+)$',
  '3',
  '1000',
  '1',
  '0',
  'true',
  'false',
  'http://127.0.0.1:8080/auth',
  'emqx2@127.0.0.1',
  'emqx-export-2030-01-01-00-00-00.000.tar.gz',
]

function sampleArgs(command: AnyCommand, which: 'all' | 'required'): Record<string, string> {
  const raw: Record<string, string> = {}
  for (const field of describeArgs(command)) {
    if (which === 'required' && !field.required) continue
    const options = field.options?.map(String).reverse() ?? []
    const accepted = [...options, ...CANDIDATES].find((candidate) => {
      const result = validateArgs(command, { [field.name]: candidate })
      return result.ok || !result.errors.some((e) => e.field === field.name)
    })
    if (accepted !== undefined) raw[field.name] = accepted
    else if (field.required) throw new Error(`no sample value for ${command.id} ${field.name}`)
  }
  return raw
}

function roundTrip(command: AnyCommand, args: Record<string, unknown>) {
  const line = formatScriptLine(command, args)
  const parsed = parseScript(line)
  expect(parsed.errors, line).toEqual([])
  expect(parsed.lines).toHaveLength(1)
  expect(parsed.lines[0].command.id).toBe(command.id)
  const again = validateArgs(command, rawArgs(parsed.lines[0]))
  expect(again, line).toEqual({ ok: true, value: args })
  return line
}

describe('writing a step back as a script line', () => {
  for (const command of listCommands()) {
    it(`${command.id}: parse(format(args)) gives the same arguments`, () => {
      for (const which of ['all', 'required'] as const) {
        const validated = validateArgs(command, sampleArgs(command, which))
        expect(validated.ok, `${command.id} ${which} ${JSON.stringify(validated)}`).toBe(true)
        if (validated.ok) roundTrip(command, validated.value as Record<string, unknown>)
      }
    })
  }

  it('round-trips random strings through every quoting rule', () => {
    const publish = listCommands().find((c) => c.id === 'message.publish')!
    const alphabet = ['a', 'Z', '0', ' ', '\t', '\n', '\r', '"', "'", '\\', '#', '=', '/', '+', 'é', '中', '\u0000', '\u001b', '\u2028', 'u', '😀']
    let seed = 42
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (let i = 0; i < 500; i++) {
      const length = Math.floor(random() * 12)
      let payload = ''
      for (let j = 0; j < length; j++) payload += alphabet[Math.floor(random() * alphabet.length)]
      roundTrip(publish, { topic: 't/1', payload, qos: 0, retain: false, payload_encoding: 'plain' })
    }
  })

  it('writes positional arguments bare, leaves out defaults and quotes what needs it', () => {
    const find = (id: string) => listCommands().find((c) => c.id === id)!
    expect(formatScriptLine(find('client.kick'), { clientid: 'c1' })).toBe('client.kick c1')
    expect(formatScriptLine(find('banned.create'), { as: 'clientid', who: 'bob smith', reason: 'spam' })).toBe(
      'banned.create clientid "bob smith" reason=spam',
    )
    expect(formatScriptLine(find('message.publish'), { topic: 't/1', payload: '', qos: 1, retain: false, payload_encoding: 'plain' })).toBe(
      'message.publish t/1 qos=1',
    )
    expect(formatScriptLine(find('client.subscribe'), { clientid: 'c', topic: '#', qos: 0, nl: false, rap: false, rh: 0 })).toBe(
      'client.subscribe c "#"',
    )
  })
})

// ——— executePlan: ordering, stopping, confirmation and dry runs ———

function recorder() {
  const calls: string[] = []
  const make = (id: string, options: { danger?: boolean; fail?: boolean; known?: string[] } = {}) =>
    defineCommand({
      id,
      title: `cmd.${id}`,
      group: 'cmdGroup.test',
      args: v.object({ name: v.pipe(v.string(), v.minLength(1)) }),
      positional: ['name'],
      danger: options.danger,
      ...(options.known
        ? { complete: { name: async (_api: Api, query: string) => options.known!.filter((k) => k.startsWith(query)) } }
        : {}),
      run: async (_ctx: CommandContext, { name }: { name: string }) => {
        calls.push(`${id} ${name}`)
        if (options.fail) throw new ApiError(404, 'CLIENTID_NOT_FOUND', `Client ID not found: ${name}`)
        return { done: name }
      },
    })
  const commands = [
    make('test.ok', { known: ['alpha', 'beta'] }),
    make('test.fail', { fail: true }),
    make('test.danger', { danger: true }),
  ] as unknown as AnyCommand[]
  const registry = createRegistry(commands)
  const steps = (text: string): PlanStep[] => {
    const result = planScript(text, { registry })
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    return result.steps
  }
  return { calls, steps }
}

const ctx = { api: {} as Api }
const statuses = (results: StepResult[]) => results.map((r) => r.status)

describe('running a plan', () => {
  it('runs the steps in order and reports each result', async () => {
    const { calls, steps } = recorder()
    const seen: StepResult[] = []
    const run = await executePlan({ steps: steps('test.ok a\ntest.ok b') }, ctx, { onStep: (r) => seen.push(r) })
    expect(calls).toEqual(['test.ok a', 'test.ok b'])
    expect(run).toMatchObject({ ok: true, refused: false })
    expect(seen.map((r) => [r.index, r.status, r.result])).toEqual([
      [0, 'ok', { done: 'a' }],
      [1, 'ok', { done: 'b' }],
    ])
  })

  it('stops at the first failure: later steps never run and are reported as skipped', async () => {
    const { calls, steps } = recorder()
    const run = await executePlan(steps('test.ok a\ntest.fail b\ntest.ok c'), ctx)
    expect(calls).toEqual(['test.ok a', 'test.fail b'])
    expect(run.ok).toBe(false)
    expect(statuses(run.results)).toEqual(['ok', 'failed', 'skipped'])
    expect(run.results[1].error).toEqual({ code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found: b' })
  })

  it('goes on past failures when asked to, and still says it did not all succeed', async () => {
    const { calls, steps } = recorder()
    const run = await executePlan(steps('test.fail a\ntest.ok b'), ctx, { continueOnError: true })
    expect(calls).toEqual(['test.fail a', 'test.ok b'])
    expect(run.ok).toBe(false)
    expect(statuses(run.results)).toEqual(['failed', 'ok'])
  })

  it('refuses a plan with a dangerous step before anything runs unless danger is confirmed', async () => {
    const { calls, steps } = recorder()
    const refused = await executePlan(steps('test.ok a\ntest.danger b'), ctx)
    expect(calls).toEqual([])
    expect(refused).toMatchObject({ ok: false, refused: true })
    expect(statuses(refused.results)).toEqual(['skipped', 'skipped'])
    const confirmed = await executePlan(steps('test.ok a\ntest.danger b'), ctx, { confirmDanger: true })
    expect(confirmed.ok).toBe(true)
    expect(calls).toEqual(['test.ok a', 'test.danger b'])
  })

  it('asks before each dangerous step when given a function, and stops where it is declined', async () => {
    const { calls, steps } = recorder()
    const asked: string[] = []
    const run = await executePlan(steps('test.danger a\ntest.ok b\ntest.danger c\ntest.ok d'), ctx, {
      continueOnError: true,
      confirmDanger: (step) => {
        asked.push(String(step.args.name))
        return step.args.name === 'a'
      },
    })
    expect(asked).toEqual(['a', 'c'])
    expect(calls).toEqual(['test.danger a', 'test.ok b'])
    expect(statuses(run.results)).toEqual(['ok', 'ok', 'cancelled', 'skipped'])
  })

  it('lets the step under way finish when interrupted and runs no more', async () => {
    const { calls, steps } = recorder()
    const interrupt = new AbortController()
    const run = await executePlan(steps('test.ok a\ntest.ok b\ntest.ok c'), ctx, {
      signal: interrupt.signal,
      onStart: (_step, index) => index === 1 && interrupt.abort(),
    })
    expect(calls).toEqual(['test.ok a', 'test.ok b'])
    expect(run.ok).toBe(false)
    expect(statuses(run.results)).toEqual(['ok', 'ok', 'skipped'])
  })

  it('runs each step through the given runner when there is one', async () => {
    const { steps } = recorder()
    const through: string[] = []
    const run = await executePlan(steps('test.ok a'), ctx, {
      runStep: async (step) => {
        through.push(step.command.id)
        return 'via runner'
      },
    })
    expect(through).toEqual(['test.ok'])
    expect(run.results[0].result).toBe('via runner')
  })

  it('dry run never runs a step, needs no confirmation and warns about values the completer does not know', async () => {
    const { calls, steps } = recorder()
    const run = await executePlan(steps('test.ok alpha\ntest.ok gamma\ntest.danger x\ntest.fail y'), ctx, { dryRun: true })
    expect(calls).toEqual([])
    expect(run.ok).toBe(true)
    expect(statuses(run.results)).toEqual(['checked', 'checked', 'checked', 'checked'])
    expect(run.results[0].warnings).toBeUndefined()
    expect(run.results[1].warnings).toEqual([{ arg: 'name', key: 'script.warn.notFound', values: { arg: 'name', value: 'gamma' } }])
  })

  it('dry run does not look up arguments whose completions only suggest (a new ban, a topic to publish to)', async () => {
    const looked: string[] = []
    const registry = createRegistry([
      defineCommand({
        id: 'test.create',
        title: 't',
        group: 'g',
        args: v.object({ who: v.string(), target: v.string() }),
        positional: ['who', 'target'],
        complete: {
          who: async (_api, query) => (looked.push(`who:${query}`), []),
          target: async (_api, query) => (looked.push(`target:${query}`), []),
        },
        suggestOnly: ['who'],
        run: async () => {
          throw new Error('must not run')
        },
      }),
    ] as unknown as AnyCommand[])
    const planned = planScript('test.create newcomer missing', { registry })
    if (!planned.ok) throw new Error('plan')
    const run = await executePlan(planned, ctx, { dryRun: true })
    expect(looked).toEqual(['target:missing'])
    expect(run.results[0].warnings).toEqual([{ arg: 'target', key: 'script.warn.notFound', values: { arg: 'target', value: 'missing' } }])
  })

  it('dry run turns a failed lookup into a warning', async () => {
    const registry = createRegistry([
      defineCommand({
        id: 'test.lookup',
        title: 't',
        group: 'g',
        args: v.object({ name: v.string() }),
        positional: ['name'],
        complete: { name: async () => Promise.reject(new ApiError(0, 'NETWORK_ERROR', 'Network Error')) },
        run: async () => {
          throw new Error('must not run')
        },
      }),
    ] as unknown as AnyCommand[])
    const planned = planScript('test.lookup x', { registry })
    if (!planned.ok) throw new Error('plan')
    const run = await executePlan(planned, ctx, { dryRun: true })
    expect(run.results[0]).toMatchObject({
      status: 'checked',
      warnings: [{ arg: 'name', key: 'script.warn.lookupFailed', values: { arg: 'name', value: 'x', message: 'Network Error' } }],
    })
  })
})
