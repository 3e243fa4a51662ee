// Data integration commands, one factory for the three kinds (connectors, actions, sources): create
// and update from a JSON `config` (the type's own fields, merged over its 5.8 defaults by the
// server), delete, enable, disable, start, test (the probe), reset metrics, and a list that prints a
// table in the terminal and the rows as JSON in the CLI. commands/connectors.ts, actions.ts and
// sources.ts pick what each kind has.
import * as v from 'valibot'
import { nameError } from '../contract/connectors.ts'
import { ApiError } from '../contract/api-error.ts'
import { CommandError, defineCommand, type Completer } from './define.ts'
import { defineRead, rowsTable } from './format/read.ts'
import type { Api } from '../src/api/index.ts'

export type IntegrationKind = 'connectors' | 'actions' | 'sources'

/** `connector`, `action`, `source`: the command ids' prefix and the locale keys' part. */
export const KIND_ONE = { connectors: 'connector', actions: 'action', sources: 'source' } as const

/** One row of a list command: what the terminal's table and the CLI's JSON show. */
export interface IntegrationRow {
  id: string
  type: string
  name: string
  enable: boolean
  status: string
  status_reason?: string
  /** Actions and sources: the connector's name. */
  connector?: string
  /** Connectors: the names of the actions and sources on it (as 5.8 lists them); actions and sources: the rules using it. */
  used_by: string[]
}

/** The calls every kind answers, over the console's API client. */
function kindApi(api: Api, kind: IntegrationKind) {
  const connectors = api.connectors
  if (kind === 'connectors') {
    return {
      list: async (signal?: AbortSignal): Promise<IntegrationRow[]> =>
        (await connectors.list(signal)).map((c) => ({ ...row(c), used_by: [...c.actions, ...c.sources] })),
      create: (body: Body) => connectors.create(body),
      update: (id: string, body: Record<string, unknown>) => connectors.update(id, body),
      remove: (id: string) => connectors.delete(id),
      enable: (id: string, enable: boolean) => connectors.enable(id, enable),
      start: (id: string) => connectors.start(id),
      probe: (body: Body) => connectors.probe(body),
      /** A connector's types are those of the actions and sources on it. */
      types: async (signal?: AbortSignal) => [...new Set([...(await connectors.actions.types(signal)), ...(await connectors.sources.types(signal))])].sort(),
      usedBy: async (id: string) => {
        const c = await connectors.get(id)
        return [...c.actions, ...c.sources]
      },
    }
  }
  const bridges = connectors[kind]
  return {
    list: async (signal?: AbortSignal): Promise<IntegrationRow[]> =>
      (await bridges.list(signal)).map((b) => ({ ...row(b), connector: b.connector, used_by: b.rules })),
    create: (body: Body) => bridges.create(body as Body & { connector: string; parameters: Record<string, unknown> }),
    update: (id: string, body: Record<string, unknown>) => bridges.update(id, body),
    remove: (id: string, alsoDeleteDepActions?: boolean) => bridges.delete(id, alsoDeleteDepActions),
    enable: (id: string, enable: boolean) => bridges.enable(id, enable),
    start: (id: string) => bridges.start(id),
    probe: (body: Body) => bridges.probe(body as Body & { connector: string; parameters: Record<string, unknown> }),
    types: (signal?: AbortSignal) => bridges.types(signal),
    usedBy: async (id: string) => (await bridges.get(id)).rules,
    resetMetrics: (id: string) => bridges.resetMetrics(id),
  }
}

type Body = { type: string; name: string } & Record<string, unknown>

function row(item: { type: string; name: string; enable: boolean; status: string; status_reason?: string | undefined }): Omit<IntegrationRow, 'used_by'> {
  return {
    id: `${item.type}:${item.name}`,
    type: item.type,
    name: item.name,
    enable: item.enable,
    status: item.status,
    ...(item.status_reason ? { status_reason: item.status_reason } : {}),
  }
}

/** Ids of the kind containing what was typed; `enable` narrows them to enabled (or disabled) ones. */
function completeId(kind: IntegrationKind, enable?: boolean): Completer {
  return async (api, query, signal) => {
    const typed = query.trim()
    const rows = await kindApi(api, kind).list(signal)
    return rows
      .filter((r) => enable === undefined || r.enable === enable)
      .map((r) => r.id)
      .filter((id) => id.includes(typed))
  }
}

function completeType(kind: IntegrationKind): Completer {
  return async (api, query, signal) => (await kindApi(api, kind).types(signal)).filter((type) => type.includes(query.trim()))
}

/** Connector names of the type being written (an action's connector is named without its type). */
const completeConnector: Completer = async (api, query, signal, args) => {
  const typed = query.trim()
  return (await api.connectors.list(signal))
    .filter((c) => !args?.type || c.type === args.type)
    .map((c) => c.name)
    .filter((name) => name.includes(typed))
}

const idArg = (kind: IntegrationKind) => v.pipe(v.string(), v.title(`integration.field.${KIND_ONE[kind]}Id`), v.minLength(1, 'err.required'))
const typeArg = () => v.pipe(v.string(), v.title('integration.field.type'), v.minLength(1, 'err.required'))
/** A new name, as emqx_resource:validate_name checks it. */
const nameArg = () =>
  v.pipe(v.string(), v.title('integration.field.name'), v.description('integration.hint.name'), v.minLength(1, 'err.nameRequired'), v.check((name) => nameError(name) === undefined, 'integration.err.name'))
const configArg = (kind: IntegrationKind) =>
  v.pipe(v.record(v.string(), v.unknown(), 'err.json'), v.title('integration.field.config'), v.description(`integration.hint.${KIND_ONE[kind]}Config`))
const connectorArg = () => v.pipe(v.string(), v.title('integration.field.connector'), v.description('integration.hint.connector'))

/** The body of a create or a probe: type and name over the config; an action's or source's connector given apart wins. */
function bodyOf(args: { type: string; name: string; config: Record<string, unknown>; connector?: string | undefined }): Body {
  return { ...args.config, ...(args.connector ? { connector: args.connector } : {}), type: args.type, name: args.name }
}

/**
 * A delete refused because something uses it, said with what uses it: rules for an action or
 * source ('Cannot delete action while active rules are depending on it'), actions and sources for
 * a connector. Any other failure is passed on as it is.
 */
async function explainInUse(kind: IntegrationKind, api: ReturnType<typeof kindApi>, id: string, error: unknown): Promise<never> {
  if (!(error instanceof ApiError) || error.status !== 400) throw error
  const users = await api.usedBy(id).catch(() => [])
  if (users.length === 0) throw error
  throw new CommandError({ key: inUseKey(kind), values: { id, users: users.join(', '), message: error.message } })
}

/** The error key of a delete refused because something uses it. */
export const inUseKey = (kind: IntegrationKind) => `integration.err.${KIND_ONE[kind]}InUse`

/** What a probe says: 'Test success, your configuration works fine', or 'Test failed' with the reason. */
async function probe(api: ReturnType<typeof kindApi>, body: Body): Promise<void> {
  try {
    await api.probe(body)
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw new CommandError({ key: 'integration.err.testFailed', values: { reason: error.message } })
    throw error
  }
}

/** The list's columns, in EMQX's own words (ids, statuses, field names). */
export function integrationTable(kind: IntegrationKind) {
  return rowsTable<IntegrationRow>([
    ['id', (r) => r.id],
    ['status', (r) => r.status],
    ['enable', (r) => r.enable],
    ...(kind === 'connectors' ? [] : ([['connector', (r: IntegrationRow) => r.connector ?? '']] as const)),
    [kind === 'connectors' ? 'channels' : 'rules', (r) => r.used_by.join(',')],
  ])
}

/** The arguments of a create and a test: an action's or source's connector may be given apart from the config. */
function newArgsOf(kind: IntegrationKind) {
  const args = v.object({ type: typeArg(), name: nameArg(), connector: v.optional(connectorArg()), config: v.optional(configArg(kind), {}) })
  // A connector has no connector: the argument is left out, and `connector` stays undefined in what is run.
  return kind === 'connectors' ? (v.omit(args, ['connector']) as unknown as typeof args) : args
}

/** The arguments of a delete: an action or source may be taken out of the rules using it first. */
function deleteArgsOf(kind: IntegrationKind) {
  const args = v.object({
    id: idArg(kind),
    alsoDeleteDepActions: v.optional(v.pipe(v.boolean('err.boolean'), v.title('integration.field.alsoDeleteDepActions'), v.description('integration.hint.alsoDeleteDepActions')), false),
  })
  // A connector's delete has no such choice: the argument is left out and reads as false.
  return kind === 'connectors' ? (v.omit(args, ['alsoDeleteDepActions']) as unknown as typeof args) : args
}

/** Every command of one kind; actions and sources add reset metrics (bridgeCommands). */
export function integrationCommands(kind: IntegrationKind) {
  const one = KIND_ONE[kind]
  const group = `cmdGroup.${kind}`
  const cmd = (name: string) => `cmd.${one}.${name}`
  const changes = kind === 'connectors' ? (['connectors'] as const) : (['connectors', 'rules'] as const)
  const newArgs = newArgsOf(kind)
  const completeNew = { type: completeType(kind), ...(kind === 'connectors' ? {} : { connector: completeConnector }) }

  const create = defineCommand({
    id: `${one}.create`,
    title: cmd('create'),
    group,
    changes,
    args: newArgs,
    positional: ['type', 'name'],
    aliases: [`new ${one}`, `add ${one}`],
    complete: completeNew,
    suggestOnly: ['type'],
    run: (ctx, args): Promise<{ type: string; name: string }> => kindApi(ctx.api, kind).create(bodyOf(args)),
    resultText: (created) => ({ key: cmd('created'), values: { id: `${created.type}:${created.name}` } }),
  })

  const update = defineCommand({
    id: `${one}.update`,
    title: cmd('update'),
    group,
    changes,
    // The whole config, as EMQX's PUT takes it (what is left out goes back to the type's default);
    // a stored secret sent back as ****** is kept.
    args: v.object({ id: idArg(kind), config: configArg(kind) }),
    positional: ['id'],
    aliases: [`edit ${one}`, `change ${one}`],
    complete: { id: completeId(kind) },
    describe: ({ id }) => ({ key: cmd('updateDescribe'), values: { id } }),
    run: (ctx, { id, config }): Promise<unknown> => {
      const { type: _type, name: _name, ...rest } = config
      return kindApi(ctx.api, kind).update(id, rest)
    },
  })

  const remove = defineCommand({
    id: `${one}.delete`,
    title: cmd('delete'),
    group,
    changes,
    args: deleteArgsOf(kind),
    positional: ['id'],
    danger: true,
    aliases: [`remove ${one}`],
    complete: { id: completeId(kind) },
    describe: ({ id, alsoDeleteDepActions }) => ({ key: cmd(alsoDeleteDepActions ? 'deleteAlsoDescribe' : 'deleteDescribe'), values: { id } }),
    run: async (ctx, args) => {
      const api = kindApi(ctx.api, kind)
      try {
        await api.remove(args.id, args.alsoDeleteDepActions)
      } catch (error) {
        await explainInUse(kind, api, args.id, error)
      }
    },
  })

  const onId = (name: 'enable' | 'disable' | 'start', run: (api: ReturnType<typeof kindApi>, id: string) => Promise<unknown>, complete: Completer) =>
    defineCommand({
      id: `${one}.${name}`,
      title: cmd(name),
      group,
      changes,
      args: v.object({ id: idArg(kind) }),
      positional: ['id'],
      // Disabling a connector stops every action and source on it: asked first, as EMQX's dashboard does.
      ...(name === 'disable' && kind === 'connectors' ? { confirm: true } : {}),
      aliases: [`${name} ${one}`, ...(name === 'start' ? [`reconnect ${one}`] : [])],
      complete: { id: complete },
      describe: ({ id }) => ({ key: cmd(`${name}Describe`), values: { id } }),
      run: (ctx, { id }) => run(kindApi(ctx.api, kind), id),
    })

  const enable = onId('enable', (api, id) => api.enable(id, true), completeId(kind, false))
  const disable = onId('disable', (api, id) => api.enable(id, false), completeId(kind, true))
  const start = onId('start', (api, id) => api.start(id), completeId(kind))

  const test = defineCommand({
    id: `${one}.test`,
    title: cmd('test'),
    group,
    readOnly: true,
    args: newArgs,
    positional: ['type', 'name'],
    aliases: [`probe ${one}`, `test ${one} connectivity`],
    complete: completeNew,
    suggestOnly: ['type'],
    run: (ctx, args) => probe(kindApi(ctx.api, kind), bodyOf(args)),
    resultText: () => ({ key: 'integration.testSuccess' }),
  })

  const list = defineRead({
    id: `${kind}.list`,
    title: `cmd.${kind}List`,
    group,
    args: v.object({}),
    aliases: [`list ${kind}`, `show ${kind}`],
    run: (ctx) => kindApi(ctx.api, kind).list(),
    table: integrationTable(kind),
  })

  return { create, update, remove, enable, disable, start, test, list }
}

/** An action's or source's commands: the common ones and reset metrics. */
export function bridgeCommands(kind: 'actions' | 'sources') {
  const one = KIND_ONE[kind]
  const resetMetrics = defineCommand({
    id: `${one}.resetMetrics`,
    title: `cmd.${one}.resetMetrics`,
    group: `cmdGroup.${kind}`,
    changes: ['connectors'],
    args: v.object({ id: idArg(kind) }),
    positional: ['id'],
    confirm: true,
    aliases: [`reset ${one} metrics`, `clear ${one} statistics`],
    complete: { id: completeId(kind) },
    describe: ({ id }) => ({ key: `cmd.${one}.resetMetricsDescribe`, values: { id } }),
    run: (ctx, { id }) => ctx.api.connectors[kind].resetMetrics(id),
  })
  return { ...integrationCommands(kind), resetMetrics }
}
