// Redis (EMQX's `redis` connector and action, emqx_bridge_redis over emqx_redis): a single server,
// a sentinel-managed primary or a cluster, as `parameters.redis_type` says; the action's
// `command_template` is one template a command argument, each rendered from the row to exactly one
// argument (a missing value is `undefined`), except a lone placeholder holding
// map_to_redis_hset_args' result, which becomes its field/value arguments. A batch is one pipeline.
// An error reply fails the rows; a server that does not answer in time is worth retrying.
import { ErrorReply, MultiErrorReply } from 'redis'
import { RedisBackend, type RedisConfig } from '../../backends/redis.ts'
import { reasonOf } from '../../backends/resource.ts'
import { lookupJsonish, parseTemplate, renderTemplate, renderValue, singleVar, type Template } from '../../rules/engine/template.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver } from '../driver.ts'
import { parseServer } from '../../backends/resource.ts'
import { backendHealth, clientTls, openChecked, within } from './backend.ts'

const COMMAND_TEMPLATE_ERROR = "the value of the field 'command_template' should be a nonempty list of strings (templates for Redis command and arguments)"

/** The connector's `parameters` as RedisBackend takes them, checked. */
export function redisConnection(config: Record<string, unknown>): RedisConfig {
  const parameters = config.parameters as Record<string, unknown> | undefined
  if (!parameters || typeof parameters !== 'object') throw new Error('parameters: required field')
  const text = (key: string): string => {
    const value = parameters[key]
    if (typeof value !== 'string' || value.trim() === '') throw new Error(`parameters.${key}: required field`)
    return value
  }
  const database = parameters.database ?? 0
  if (typeof database !== 'number' || !Number.isInteger(database) || database < 0) throw new Error('parameters.database: must be a non-negative integer')
  const single = parameters.redis_type === 'single' && typeof parameters.server === 'string' && parameters.server.trim() !== ''
  const credentials = {
    username: typeof parameters.username === 'string' ? parameters.username : undefined,
    password: typeof parameters.password === 'string' ? parameters.password : undefined,
    tls: clientTls(config, single ? parseServer(parameters.server as string, 6379).host : undefined),
  }
  switch (parameters.redis_type) {
    case 'single':
      return { redis_type: 'single', server: text('server'), database, ...credentials }
    case 'sentinel':
      return { redis_type: 'sentinel', servers: text('servers'), sentinel: text('sentinel'), database, ...credentials }
    case 'cluster':
      return { redis_type: 'cluster', servers: text('servers'), ...credentials }
    default:
      throw new Error('parameters.redis_type: must be single, sentinel or cluster')
  }
}

export interface RedisPrepared {
  args: readonly Template[]
}

const HSET_ARGS = 'map_to_redis_hset_args'

/** One command's arguments for a row (emqx_bridge_redis_connector:proc_command_template). */
function renderCommand(prepared: RedisPrepared, row: Readonly<Record<string, unknown>>): string[] {
  return prepared.args.flatMap((arg) => {
    const path = singleVar(arg)
    if (path) {
      const found = lookupJsonish(path, row)
      if (found.found && Array.isArray(found.value) && found.value[0] === HSET_ARGS) return found.value.slice(1).map(renderValue)
    }
    return [renderTemplate(arg, row)]
  })
}

export const redisConnector: ConnectorDriver<RedisBackend> = {
  type: 'redis',
  start: (config) => openChecked(new RedisBackend(redisConnection(config))),
  health: backendHealth,
  stop: (backend) => backend.close(),
}

export const redisAction: ActionDriver<RedisBackend, RedisPrepared> = {
  type: 'redis',
  connectorType: 'redis',
  prepare(parameters) {
    const template = parameters.command_template
    if (!Array.isArray(template) || template.length === 0 || !template.every((arg) => typeof arg === 'string')) throw new Error(COMMAND_TEMPLATE_ERROR)
    return { args: template.map((arg) => parseTemplate(arg)) }
  },
  async send(backend, prepared, batch, { timeoutMs, signal, trace }) {
    const commands = batch.map((row) => renderCommand(prepared, row))
    // 5.8 writes a batch's commands as one text (trace_format_commands): arguments by spaces, commands by `; `.
    trace?.rendered(commands.length === 1 ? { command: commands[0], batch: false } : { commands: commands.map((command) => command.join(' ')).join('; '), batch: true })
    try {
      await within(backend.pipeline(commands), timeoutMs, signal)
    } catch (error) {
      if (error instanceof RecoverableError) throw error
      // An error reply (`-ERR unknown command`, `-WRONGTYPE`): in a pipeline, the first one's.
      if (error instanceof MultiErrorReply) throw new UnrecoverableError(reasonOf(error.replies[0]))
      if (error instanceof ErrorReply) throw new UnrecoverableError(reasonOf(error))
      throw new RecoverableError(reasonOf(error))
    }
  },
}
