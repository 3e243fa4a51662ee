// One authorization rule, compiled, as EMQX's emqx_authz_rule: who it is for, which actions (with
// their QoS and retain conditions) and which topics, and whether it allows or denies. The file
// source (acl.conf) and the built-in database both compile to this and match with `matchRules`.
import { BlockList, isIP } from 'node:net'
import type { AuthzAction, AuthzDetail, AuthzResult, ClientInfo } from '../../broker/hooks.ts'
import type { LinearRegex } from '../../broker/linear-regex.ts'
import { plainAddress } from '../../broker/listeners.ts'
import { matchesFilter, parseShare } from '../../broker/topic-trie.ts'

export type RuleAction = 'publish' | 'subscribe' | 'all'

/** Who a rule is for. */
export type Who =
  | { kind: 'all' }
  | { kind: 'username' | 'clientid'; value: string }
  | { kind: 'username_re' | 'clientid_re'; re: LinearRegex }
  | { kind: 'ipaddrs'; list: BlockList }
  /** A client attribute equal to `value`, or matching `re` (`{client_attr, Name, {re, Pattern}}`). */
  | { kind: 'client_attr'; name: string; value: string }
  | { kind: 'client_attr_re'; name: string; re: LinearRegex }
  | { kind: 'and' | 'or'; of: Who[] }

/** One topic of a rule: a filter (placeholders rendered per client), an exact `eq` one, or `all`. */
export type TopicMatch = { kind: 'filter' | 'eq'; template: string } | { kind: 'all' }

export interface Rule {
  permission: AuthzResult
  who: Who
  action: RuleAction
  /** The QoS levels the rule covers. */
  qos: readonly number[]
  /** Publish only: which retain flag the rule covers. */
  retain: boolean | 'all'
  topics: readonly TopicMatch[]
  /** Where the rule is written, for `authz.check` (an acl.conf line, a built-in rule, a database row). */
  origin?: string
}

export const ALL_QOS: readonly number[] = [0, 1, 2]

const PLACEHOLDER = /\$\{([a-zA-Z0-9_.-]+)\}/g

/** What a placeholder of a rule's topic stands for; undefined when the client has no such value. */
function topicVariable(name: string, info: Pick<ClientInfo, 'username' | 'clientid' | 'clientAttrs'>): string | undefined {
  if (name === 'username') return info.username
  if (name === 'clientid') return info.clientid
  // The embedded broker has one zone and no TLS client certificates here.
  if (name === 'zone') return 'default'
  if (name.startsWith('client_attrs.')) return info.clientAttrs?.[name.slice('client_attrs.'.length)]
  return undefined
}

/** The placeholders EMQX allows in a rule's topic; any other is left as it is written. */
const isTopicVariable = (name: string) => ['username', 'clientid', 'zone', 'cert_common_name'].includes(name) || name.startsWith('client_attrs.')

/** The topic with its placeholders filled in; undefined when one has no value (EMQX: no match then). */
export function renderTopic(template: string, info: Pick<ClientInfo, 'username' | 'clientid' | 'clientAttrs'>): string | undefined {
  if (!template.includes('${')) return template
  let unresolved = false
  const rendered = template.replace(PLACEHOLDER, (whole, name: string) => {
    if (!isTopicVariable(name)) return whole
    const value = topicVariable(name, info)
    if (value === undefined) unresolved = true
    return value ?? ''
  })
  return unresolved ? undefined : rendered
}

/** Adds an address or CIDR to a BlockList; false when it is neither. */
export function addAddress(list: BlockList, text: string): boolean {
  const [address, bits] = text.split('/')
  const version = isIP(address ?? '')
  if (!version) return false
  const family = version === 4 ? 'ipv4' : 'ipv6'
  if (bits === undefined) {
    list.addAddress(address, family)
    return true
  }
  if (!/^\d+$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128)) return false
  list.addSubnet(address, Number(bits), family)
  return true
}

export function whoMatches(who: Who, info: ClientInfo): boolean {
  switch (who.kind) {
    case 'all':
      return true
    case 'username':
      return info.username === who.value
    case 'clientid':
      return info.clientid === who.value
    case 'username_re':
      return info.username !== undefined && who.re.test(info.username)
    case 'clientid_re':
      return who.re.test(info.clientid)
    case 'ipaddrs': {
      const host = plainAddress(info.peerhost)
      const version = isIP(host)
      return version !== 0 && who.list.check(host, version === 4 ? 'ipv4' : 'ipv6')
    }
    case 'client_attr':
      return info.clientAttrs?.[who.name] === who.value
    case 'client_attr_re': {
      const value = info.clientAttrs?.[who.name]
      return value !== undefined && who.re.test(value)
    }
    case 'and':
      return who.of.every((one) => whoMatches(one, info))
    case 'or':
      return who.of.some((one) => whoMatches(one, info))
  }
}

function actionMatches(rule: Rule, action: AuthzAction, detail: AuthzDetail): boolean {
  if (rule.action !== 'all' && rule.action !== action) return false
  if (!rule.qos.includes(detail.qos)) return false
  return action === 'subscribe' || rule.retain === 'all' || rule.retain === detail.retain
}

/** `realTopic`: a shared subscription's real filter, which rules other than `eq` are matched against. */
function topicMatches(match: TopicMatch, info: ClientInfo, topic: string, realTopic: string): boolean {
  if (match.kind === 'all') return true
  const rendered = renderTopic(match.template, info)
  if (rendered === undefined) return false
  if (match.kind === 'eq') return rendered === topic
  return matchesFilter(rendered, realTopic)
}

/** A shared subscription is authorized on its real filter, as EMQX matches `#share{}` topics. */
const realTopicOf = (topic: string): string => parseShare(topic)?.filter ?? topic

/** Whether one rule applies to this check. */
export function ruleMatches(rule: Rule, info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail, realTopic = realTopicOf(topic)): boolean {
  if (!whoMatches(rule.who, info) || !actionMatches(rule, action, detail)) return false
  for (const match of rule.topics) if (topicMatches(match, info, topic, realTopic)) return true
  return false
}

/** The first rule that applies; undefined (nomatch) when none does. */
export function firstMatch(rules: readonly Rule[], info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): Rule | undefined {
  const realTopic = realTopicOf(topic)
  for (const rule of rules) if (ruleMatches(rule, info, action, topic, detail, realTopic)) return rule
  return undefined
}

/** The permission of the first rule that applies; undefined (nomatch) when none does. */
export function matchRules(rules: readonly Rule[], info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): AuthzResult | undefined {
  return firstMatch(rules, info, action, topic, detail)?.permission
}

/** A topic as the built-in database and authn ACLs write it: `eq <filter>` is exact. */
export function topicOf(text: string): TopicMatch {
  return text.startsWith('eq ') ? { kind: 'eq', template: text.slice(3) } : { kind: 'filter', template: text }
}
