// A rule as a database row, Redis hash entry or MongoDB document writes it (EMQX's
// emqx_authz_rule_raw): permission allow|deny, action publish|pub|subscribe|sub|all, `topic` or a
// list of `topics` (`eq ` for exact ones), qos as a number, "0,1" or a list, retain as a boolean,
// "true"/"false", 0/1 or "all". A row that is not a rule is skipped, as EMQX logs it and goes on.
import { ALL_QOS, topicOf, type Rule, type RuleAction } from './rules.ts'

const ACTIONS: Record<string, RuleAction> = { publish: 'publish', pub: 'publish', subscribe: 'subscribe', sub: 'subscribe', all: 'all' }

function qosOf(raw: unknown): readonly number[] | undefined {
  if (raw === undefined || raw === null) return ALL_QOS
  const list = typeof raw === 'number' ? [raw] : typeof raw === 'string' ? raw.split(',').map((part) => (/^[012]$/.test(part) ? Number(part) : NaN)) : Array.isArray(raw) ? raw.map((q) => (typeof q === 'string' && /^[012]$/.test(q) ? Number(q) : q)) : undefined
  return list?.every((q) => q === 0 || q === 1 || q === 2) ? (list as number[]) : undefined
}

function retainOf(raw: unknown): boolean | 'all' | undefined {
  if (raw === undefined || raw === null || raw === 'all') return 'all'
  if (raw === true || raw === 1 || raw === '1' || raw === 'true') return true
  if (raw === false || raw === 0 || raw === '0' || raw === 'false') return false
  return undefined
}

/** Text from a column: drivers give strings, buffers (MySQL binary columns) or numbers. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  return undefined
}

/** The rule a raw map writes, for everyone (the query chose the client); undefined when it is not one. */
export function rawRule(raw: Readonly<Record<string, unknown>>): Rule | undefined {
  const permission = text(raw.permission)
  const action = ACTIONS[text(raw.action) ?? '']
  if ((permission !== 'allow' && permission !== 'deny') || !action) return undefined
  const topicList = Array.isArray(raw.topics) ? raw.topics.map(text) : text(raw.topic) !== undefined ? [text(raw.topic)] : undefined
  if (!topicList || topicList.some((topic) => topic === undefined)) return undefined
  const qos = qosOf(raw.qos)
  const retain = retainOf(raw.retain)
  if (!qos || retain === undefined) return undefined
  return { permission, who: { kind: 'all' }, action, qos, retain, topics: (topicList as string[]).map(topicOf), origin: `${permission} ${action} ${(topicList as string[]).join(', ')}` }
}
