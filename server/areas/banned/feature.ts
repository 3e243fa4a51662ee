// Banned clients: refused at CONNECT (MQTT 5 0x8A, MQTT 3 code 5) and kicked when banned while
// connected. Exact bans are keyed lookups; pattern bans (regex, CIDR) are checked one by one.
import { BlockList, isIP } from 'node:net'
import type { Ban, BannedRepository, BanType } from './store.ts'
import type { Broker } from '../../broker/broker.ts'
import type { ClientInfo } from '../../broker/hooks.ts'
import { banPatternProblem, compileBanPattern, type BanPattern } from './ban-pattern.ts'

/** A ban's `who` that cannot be used (bad address, regex or CIDR), with why; undefined when fine. */
/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2 ** 31 - 1

export function invalidWho(as: BanType, who: string): string | undefined {
  switch (as) {
    case 'peerhost':
      return isIP(who) ? undefined : 'bad peerhost'
    case 'peerhost_net':
      return parseCidr(who) ? undefined : 'bad peerhost_net (CIDR expected, e.g. 192.168.0.0/16)'
    case 'clientid_re':
    case 'username_re': {
      const problem = banPatternProblem(who)
      return problem === undefined ? undefined : `bad regular expression: ${problem}`
    }
    default:
      return undefined
  }
}

function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address, bits] = text.split('/')
  const version = isIP(address ?? '')
  if (!version || bits === undefined || !/^\d+$/.test(bits)) return undefined
  const prefix = Number(bits)
  if (prefix > (version === 4 ? 32 : 128)) return undefined
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' }
}

export function banMatches(ban: Ban, info: Pick<ClientInfo, 'clientid' | 'username' | 'peerhost'>): boolean {
  switch (ban.as) {
    case 'clientid':
      return info.clientid === ban.who
    case 'username':
      return info.username !== undefined && info.username === ban.who
    case 'peerhost':
      return normalizeHost(info.peerhost) === normalizeHost(ban.who)
    case 'clientid_re':
      return safeRegex(ban.who)?.test(info.clientid) ?? false
    case 'username_re':
      return info.username !== undefined && (safeRegex(ban.who)?.test(info.username) ?? false)
    case 'peerhost_net': {
      const cidr = parseCidr(ban.who)
      const host = normalizeHost(info.peerhost)
      const family = isIP(host) === 6 ? 'ipv6' : 'ipv4'
      if (!cidr || cidr.family !== family) return false
      const list = new BlockList()
      list.addSubnet(cidr.address, cidr.prefix, cidr.family)
      return list.check(host, family)
    }
  }
}

/** IPv4 clients on a dual-stack socket show up as `::ffff:a.b.c.d`. */
function normalizeHost(host: string): string {
  return host.startsWith('::ffff:') && isIP(host.slice(7)) === 4 ? host.slice(7) : host
}

function safeRegex(source: string): BanPattern | undefined {
  try {
    return compileBanPattern(source)
  } catch {
    return undefined
  }
}

export class BannedFeature {
  private readonly broker: Broker
  readonly repository: BannedRepository
  private timer: NodeJS.Timeout | undefined
  private readonly unhook: () => void

  constructor(broker: Broker, repository: BannedRepository) {
    this.broker = broker
    this.repository = repository
    // Checked before any authenticator, as EMQX checks the banned table first.
    this.unhook = broker.hooks.add(
      'client.authenticate',
      (info) => (this.isBanned(info) ? { result: 'deny', reason: 'banned' } : undefined),
      1_000_000,
    )
    this.cleanUp()
  }

  stop(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.unhook()
  }

  /** Removes the bans that have ended and arms one timer for the next one to end. */
  cleanUp(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.repository.removeExpired()
    const next = this.repository.nextExpiry()
    if (next === undefined) return
    this.timer = setTimeout(() => this.cleanUp(), Math.min(Math.max(0, next - Date.now()) + 1, MAX_TIMER_MS))
    this.timer.unref()
  }

  isBanned(info: Pick<ClientInfo, 'clientid' | 'username' | 'peerhost'>, now = Date.now()): boolean {
    const active = (ban: Ban | undefined) => ban !== undefined && (ban.until === undefined || ban.until > now)
    const repo = this.repository
    if (active(repo.find('clientid', info.clientid))) return true
    if (info.username !== undefined && active(repo.find('username', info.username))) return true
    if (active(repo.find('peerhost', normalizeHost(info.peerhost)))) return true
    return repo.listRules().some((ban) => active(ban) && banMatches(ban, info))
  }

  /** Whether this exact client id has an active ban (what EMQX checks before publishing a delayed message). */
  isClientIdBanned(clientid: string, now = Date.now()): boolean {
    const ban = this.repository.find('clientid', clientid)
    return ban !== undefined && (ban.until === undefined || ban.until > now)
  }

  /**
   * Adds a ban; an existing active one for the same (as, who) is returned instead (an expired one is
   * replaced). Connected clients the ban covers are kicked.
   */
  create(ban: Ban): { created: Ban } | { existing: Ban } {
    const existing = this.repository.find(ban.as, ban.who)
    if (existing && (existing.until === undefined || existing.until > Date.now())) return { existing }
    this.repository.put(ban)
    if (ban.until !== undefined) this.cleanUp()
    for (const session of this.broker.listSessions()) {
      if (session.connected && banMatches(ban, session.info)) this.broker.kick(session.clientid)
    }
    return { created: ban }
  }
}
