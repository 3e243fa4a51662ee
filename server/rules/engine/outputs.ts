// A rule's outputs as the engine holds them (emqx_rule_actions:parse_action): an action by id
// (`type:name`, legacy types upgraded: `webhook` -> `http`), or a built-in function (republish with
// its templates, console). Actions are sent through dispatchers registered by type, so the data
// integration areas (issue 16) plug in with `ActionRegistry.register`; a type nobody registered, or a
// name the dispatcher does not know, is a missing action and counted as 5.8 counts it (discarded).
import { REPUBLISH_DEFAULTS, REPUBLISH_MQTT_PROPERTIES } from '../../../contract/rules.ts'
import { parseTemplate, type Template } from './template.ts'
import type { ActionTraceContext } from './trace.ts'

/** Action types EMQX renamed (bridge_v1_type_to_bridge_v2_type): a rule may still name the old one. */
const UPGRADED_TYPES: Readonly<Record<string, string>> = { webhook: 'http', kafka: 'kafka_producer' }

export interface RepublishArgsConfig {
  topic: string
  qos: number | string
  retain: boolean | string
  payload: string
  mqtt_properties: Record<string, string>
  user_properties: string
  direct_dispatch: boolean | string
}

export interface RepublishTemplates {
  topic: Template
  qos: Template | { const: unknown }
  retain: Template | { const: unknown }
  payload: Template
  mqttProperties: Array<[string, Template]>
  /** 'original': the publisher's own User-Property (`${pub_props.'User-Property'}`). */
  userProperties: Template | 'original' | undefined
  directDispatch: Template | { const: unknown }
}

export type ParsedOutput =
  | { kind: 'action'; type: string; name: string; id: string }
  | { kind: 'republish'; args: RepublishArgsConfig; templates: RepublishTemplates }
  | { kind: 'console' }

/** `type:name` with the type upgraded, or undefined when the id is not of that pattern. */
export function parseActionId(id: string): { type: string; name: string; id: string } | undefined {
  const parts = id.replace(/^bridge:/, '').split(':')
  if (parts.length !== 2) return undefined
  const type = UPGRADED_TYPES[parts[0]] ?? parts[0]
  return { type, name: parts[1], id: `${type}:${parts[1]}` }
}

const simpleVar = (value: unknown): Template | { const: unknown } => (typeof value === 'string' ? parseTemplate(value) : { const: value })

export function republishTemplates(args: RepublishArgsConfig): RepublishTemplates {
  const user = args.user_properties
  return {
    topic: parseTemplate(args.topic),
    qos: simpleVar(args.qos),
    retain: simpleVar(args.retain),
    // An empty payload template republishes the whole selected map.
    payload: parseTemplate(args.payload === '' ? '${.}' : args.payload),
    mqttProperties: Object.entries(args.mqtt_properties).map(([key, value]) => [key, parseTemplate(value)]),
    userProperties:
      user === "${pub_props.'User-Property'}" || user === "${.pub_props.'User-Property'}" ? 'original' : user.startsWith('${') ? parseTemplate(user) : undefined,
    directDispatch: simpleVar(args.direct_dispatch),
  }
}

/** Republish's arguments with EMQX's defaults filled in (what the API answers for them). */
export function republishArgsWithDefaults(args: Partial<RepublishArgsConfig> & { topic: string }): RepublishArgsConfig {
  return {
    direct_dispatch: args.direct_dispatch ?? REPUBLISH_DEFAULTS.direct_dispatch,
    mqtt_properties: args.mqtt_properties ?? {},
    payload: args.payload ?? REPUBLISH_DEFAULTS.payload,
    qos: args.qos ?? REPUBLISH_DEFAULTS.qos,
    retain: args.retain ?? REPUBLISH_DEFAULTS.retain,
    topic: args.topic,
    user_properties: args.user_properties ?? REPUBLISH_DEFAULTS.user_properties,
  }
}

export const REPUBLISH_ARG_KEYS = ['topic', 'qos', 'retain', 'payload', 'mqtt_properties', 'user_properties', 'direct_dispatch'] as const
export { REPUBLISH_MQTT_PROPERTIES }

/** The output as the API shows it (format_action): an action id, or `{function, args}`. */
export function formatOutput(output: ParsedOutput): string | { function: string; args?: Record<string, unknown> } {
  switch (output.kind) {
    case 'action':
      return output.id
    case 'console':
      return { function: 'console' }
    case 'republish':
      return { function: 'republish', args: { ...output.args } }
  }
}

/** What an action dispatcher answers for one send (EMQX's query results, by how 5.8 counts them). */
export type ActionOutcome =
  /** Sent. */
  | 'ok'
  /** No such action, or it is disabled: `actions.discarded`. */
  | 'not_found'
  | 'disabled'
  /** The target is down: `actions.failed` + `actions.failed.out_of_service`. */
  | 'out_of_service'
  /** Any other failure: `actions.failed` + `actions.failed.unknown` (a rule test stopping the action after rendering too). */
  | { error: string; stoppedAfterRender?: boolean }

export interface ActionSend {
  ruleId: string
  /** The action's name (the part after `type:`). */
  name: string
  /** The rule's selected output. */
  selected: Record<string, unknown>
  /** The event's columns (what actions may read besides the selected output). */
  envs: Record<string, unknown>
  /** `/rules/{id}/test` with stop_action_after_template_rendering: render, then stop before sending. */
  stopAfterRender: boolean
  /** Set only while a trace runs or a rule test stops after rendering: what the action's trace lines carry. */
  trace?: ActionTraceContext
}

/** Sends a rule's output to the actions of one type; an answer later (a promise) is counted when it comes. */
export type ActionDispatcher = (send: ActionSend) => ActionOutcome | Promise<ActionOutcome>

/** The action dispatchers by type, which issue 16's data integration registers into. */
export class ActionRegistry {
  private readonly dispatchers = new Map<string, ActionDispatcher>()

  /** Registers the dispatcher of an action type (`http`, `mqtt`...); returns the function that removes it. */
  register(type: string, dispatcher: ActionDispatcher): () => void {
    this.dispatchers.set(type, dispatcher)
    return () => {
      if (this.dispatchers.get(type) === dispatcher) this.dispatchers.delete(type)
    }
  }

  get(type: string): ActionDispatcher | undefined {
    return this.dispatchers.get(type)
  }
}
