// The acl.conf rule language of EMQX's file source: Erlang terms, each ending with a dot,
// `{Permission, Who, Action, Topics}.` or `{Permission, all}.`. Read for real: a tokenizer, a term
// reader and a compiler to rules.ts's rules; every error names the line it is on.
import { BlockList } from 'node:net'
import { compileLinearRegex, linearRegexProblem, type LinearRegex } from '../../broker/linear-regex.ts'
import { addAddress, ALL_QOS, type Rule, type RuleAction, type TopicMatch, type Who } from './rules.ts'

/** EMQX's shipped etc/acl.conf rules (its comments left out): what a file source starts with. */
export const DEFAULT_ACL_CONF = `{allow, {username, {re, "^dashboard$"}}, subscribe, ["$SYS/#"]}.

{allow, {ipaddr, "127.0.0.1"}, all, ["$SYS/#", "#"]}.

{deny, all, subscribe, ["$SYS/#", {eq, "#"}, {eq, "+/#"}]}.

{allow, all}.
`

export class AclError extends Error {
  readonly line: number
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`)
    this.line = line
  }
}

type Term =
  | { t: 'atom'; v: string; line: number }
  | { t: 'string'; v: string; line: number }
  | { t: 'int'; v: number; line: number }
  | { t: 'tuple' | 'list'; v: Term[]; line: number }

type Token = { kind: 'punct'; v: string; line: number } | Term

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", s: ' ', e: '\x1b', '0': '\0' }

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let line = 1
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '\n') {
      line++
      i++
    } else if (/\s/.test(c)) i++
    else if (c === '%') {
      while (i < text.length && text[i] !== '\n') i++
    } else if ('{}[],'.includes(c)) {
      tokens.push({ kind: 'punct', v: c, line })
      i++
    } else if (c === '.') {
      // A term ends with a dot followed by white space, a comment or the end of the text.
      const next = text[i + 1]
      if (next !== undefined && !/\s|%/.test(next)) throw new AclError(line, `unexpected '.${next}'`)
      tokens.push({ kind: 'punct', v: '.', line })
      i++
    } else if (c === '"' || c === "'") {
      const start = line
      let value = ''
      i++
      for (;;) {
        if (i >= text.length) throw new AclError(start, `unterminated ${c === '"' ? 'string' : 'quoted atom'}`)
        const ch = text[i]
        if (ch === c) break
        if (ch === '\n') line++
        if (ch === '\\') {
          const escaped = text[i + 1]
          if (escaped === undefined) throw new AclError(line, 'unterminated string')
          value += ESCAPES[escaped] ?? escaped
          i += 2
        } else {
          value += ch
          i++
        }
      }
      i++
      tokens.push(c === '"' ? { t: 'string', v: value, line: start } : { t: 'atom', v: value, line: start })
    } else if (/[0-9]/.test(c)) {
      const m = /^\d+/.exec(text.slice(i))!
      tokens.push({ t: 'int', v: Number(m[0]), line })
      i += m[0].length
    } else if (/[a-z]/.test(c)) {
      const m = /^[a-zA-Z0-9_@]+/.exec(text.slice(i))!
      tokens.push({ t: 'atom', v: m[0], line })
      i += m[0].length
    } else {
      throw new AclError(line, `unexpected character '${c}'`)
    }
  }
  return tokens
}

/** Reads the terms of the text, each with the line it starts on. */
function readTerms(text: string): Term[] {
  const tokens = tokenize(text)
  let pos = 0
  const lastLine = () => tokens[tokens.length - 1]?.line ?? 1
  const isPunct = (token: Token | undefined, v: string) => token !== undefined && 'kind' in token && token.v === v

  const term = (): Term => {
    const token = tokens[pos++]
    if (token === undefined) throw new AclError(lastLine(), 'unexpected end of file')
    if (!('kind' in token)) return token
    if (token.v === '{' || token.v === '[') {
      const close = token.v === '{' ? '}' : ']'
      const items: Term[] = []
      if (isPunct(tokens[pos], close)) {
        pos++
      } else {
        for (;;) {
          items.push(term())
          const sep = tokens[pos++]
          if (isPunct(sep, close)) break
          if (!isPunct(sep, ',')) throw new AclError(sep?.line ?? lastLine(), sep ? `expected ',' or '${close}'` : 'unexpected end of file')
        }
      }
      return { t: token.v === '{' ? 'tuple' : 'list', v: items, line: token.line }
    }
    throw new AclError(token.line, `unexpected '${token.v}'`)
  }

  const terms: Term[] = []
  while (pos < tokens.length) {
    const one = term()
    const end = tokens[pos++]
    if (!isPunct(end, '.')) throw new AclError(end?.line ?? one.line, `missing '.' after the rule starting here`)
    terms.push(one)
  }
  return terms
}

const show = (term: Term): string => {
  switch (term.t) {
    case 'atom':
      return term.v
    case 'string':
      return JSON.stringify(term.v)
    case 'int':
      return String(term.v)
    case 'tuple':
      return `{${term.v.map(show).join(', ')}}`
    case 'list':
      return `[${term.v.map(show).join(', ')}]`
  }
}

const isAtom = (term: Term | undefined, ...names: string[]): boolean => term?.t === 'atom' && names.includes(term.v)

function regex(term: Term, line: number): LinearRegex {
  if (term.t !== 'string') throw new AclError(line, `a regular expression must be a string: ${show(term)}`)
  const problem = linearRegexProblem(term.v)
  if (problem !== undefined) throw new AclError(line, `bad regular expression ${JSON.stringify(term.v)}: ${problem}`)
  return compileLinearRegex(term.v)
}

function compileWho(term: Term, line: number, nested = false): Who {
  if (isAtom(term, 'all') && !nested) return { kind: 'all' }
  if (term.t !== 'tuple' || term.v.length < 2 || term.v[0].t !== 'atom') throw new AclError(line, `invalid who: ${show(term)}`)
  const [head, value] = term.v
  const name = (head as { v: string }).v
  switch (name) {
    case 'user':
    case 'username':
    case 'client':
    case 'clientid': {
      const kind = name.startsWith('user') ? 'username' : 'clientid'
      if (value.t === 'string') return { kind, value: value.v }
      if (value.t === 'tuple' && value.v.length === 2 && isAtom(value.v[0], 're')) return { kind: `${kind}_re`, re: regex(value.v[1], line) }
      throw new AclError(line, `invalid ${name}: ${show(value)}`)
    }
    case 'ipaddr':
    case 'ipaddrs': {
      const list = new BlockList()
      const addresses = name === 'ipaddr' ? [value] : value.t === 'list' ? value.v : undefined
      if (!addresses) throw new AclError(line, `ipaddrs takes a list of addresses: ${show(value)}`)
      for (const address of addresses) {
        if (address.t !== 'string' || !addAddress(list, address.v)) throw new AclError(line, `invalid ${name}: ${show(address)}`)
      }
      return { kind: 'ipaddrs', list }
    }
    case 'client_attr': {
      const match = term.v[2]
      if (term.v.length !== 3 || value.t !== 'string') throw new AclError(line, `invalid client_attr: ${show(term)}`)
      if (match.t === 'string') return { kind: 'client_attr', name: value.v, value: match.v }
      if (match.t === 'tuple' && match.v.length === 2 && isAtom(match.v[0], 're')) return { kind: 'client_attr_re', name: value.v, re: regex(match.v[1], line) }
      throw new AclError(line, `invalid client_attr: ${show(term)}`)
    }
    case 'and':
    case 'or':
      if (nested || value.t !== 'list' || value.v.length === 0) throw new AclError(line, `invalid ${name}: ${show(term)}`)
      return { kind: name, of: value.v.map((one) => compileWho(one, line, true)) }
    default:
      throw new AclError(line, `invalid who: ${show(term)}`)
  }
}

function compileQos(term: Term, line: number): number[] {
  const levels = term.t === 'list' ? term.v : [term]
  return levels.map((level) => {
    if (level.t !== 'int' || level.v > 2) throw new AclError(line, `invalid qos: ${show(term)}`)
    return level.v
  })
}

function compileAction(term: Term, line: number): Pick<Rule, 'action' | 'qos' | 'retain'> {
  const simple = (t: Term | undefined): RuleAction | undefined =>
    isAtom(t, 'publish', 'pub') ? 'publish' : isAtom(t, 'subscribe', 'sub') ? 'subscribe' : isAtom(t, 'all') ? 'all' : undefined
  const plain = simple(term)
  if (plain) return { action: plain, qos: ALL_QOS, retain: 'all' }
  if (term.t !== 'tuple' || term.v.length !== 2 || !simple(term.v[0]) || term.v[1].t !== 'list') throw new AclError(line, `invalid action: ${show(term)}`)
  const action = simple(term.v[0])!
  let qos = ALL_QOS
  let retain: boolean | 'all' = 'all'
  for (const option of term.v[1].v) {
    if (option.t !== 'tuple' || option.v.length !== 2) throw new AclError(line, `invalid action option: ${show(option)}`)
    const [key, value] = option.v
    if (isAtom(key, 'qos')) qos = compileQos(value, line)
    else if (isAtom(key, 'retain') && action !== 'subscribe') {
      if (isAtom(value, 'true', 'false', 'all')) retain = value.v === 'all' ? 'all' : value.v === 'true'
      else throw new AclError(line, `invalid retain: ${show(value)}`)
    } else throw new AclError(line, `invalid action option: ${show(option)}`)
  }
  return { action, qos, retain }
}

function compileTopics(term: Term, line: number): TopicMatch[] {
  if (isAtom(term, 'all')) return [{ kind: 'all' }]
  const topics = term.t === 'list' ? term.v : [term]
  return topics.map((topic) => {
    if (topic.t === 'string') return { kind: 'filter', template: topic.v }
    if (isAtom(topic, 'all')) return { kind: 'all' }
    if (topic.t === 'tuple' && topic.v.length === 2 && isAtom(topic.v[0], 'eq') && topic.v[1].t === 'string') return { kind: 'eq', template: topic.v[1].v }
    throw new AclError(line, `invalid topic: ${show(topic)}`)
  })
}

function compileRule(term: Term): Rule {
  const { line } = term
  if (term.t !== 'tuple') throw new AclError(line, `a rule must be a tuple: ${show(term)}`)
  const [permission, ...rest] = term.v
  if (!isAtom(permission, 'allow', 'deny')) throw new AclError(line, `permission must be allow or deny: ${permission ? show(permission) : 'missing'}`)
  const result = (permission as { v: 'allow' | 'deny' }).v
  if (rest.length === 1 && isAtom(rest[0], 'all')) {
    return { permission: result, who: { kind: 'all' }, action: 'all', qos: ALL_QOS, retain: 'all', topics: [{ kind: 'all' }] }
  }
  if (rest.length !== 3) throw new AclError(line, `a rule is {Permission, Who, Action, Topics} or {Permission, all}: ${show(term)}`)
  return { permission: result, who: compileWho(rest[0], line), ...compileAction(rest[1], line), topics: compileTopics(rest[2], line) }
}

/** The rules of an acl.conf text, in order; throws AclError naming the line of the first problem. */
export function parseAclConf(text: string): Rule[] {
  return readTerms(text).map((term) => ({ ...compileRule(term), origin: `acl.conf line ${term.line}: ${show(term)}` }))
}
