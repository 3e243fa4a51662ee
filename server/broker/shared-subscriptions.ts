// Which member of a shared subscription group (`$share/<group>/<filter>`, `$queue/<filter>`) gets a
// message, by EMQX's `shared_subscription_strategy`.
import type { Message } from './message.ts'
import type { SharedStrategy } from './settings.ts'

/** One member of a group: a client and the filter as it subscribed it. */
export interface SharedMember {
  clientid: string
}

/** Marks a delivery made through a shared subscription, so it can go to another member if this one ends. */
export const SHARED_FROM = Symbol('sharedFrom')

export interface SharedOrigin {
  group: string
  filter: string
}

/** The key of one group on one filter: the unit every strategy keeps its position for. */
export function groupKey(group: string, filter: string): string {
  return `${group}\u0000${filter}`
}

export class SharedSelector {
  /** round_robin_per_group: one position per shared group and filter, whoever publishes. */
  private readonly groupCursors = new Map<string, number>()
  /** round_robin: like EMQX, each publisher keeps its own position per group and filter. */
  private readonly publisherCursors = new Map<string, Map<string, number>>()
  /** The member a sticky group keeps sending to, per group and filter. */
  private readonly stickyMembers = new Map<string, string>()

  /**
   * Picks the member that gets a message. `online` are the members whose client is connected: they
   * are preferred, offline ones (persistent sessions) only when nobody is online.
   */
  pick<M extends SharedMember>(strategy: SharedStrategy, key: string, members: M[], online: M[], message: Message): M {
    const pool = online.length > 0 ? online : members
    switch (strategy) {
      case 'random':
      case 'local': // a single node: every member is local
        return pool[Math.floor(Math.random() * pool.length)]
      case 'hash_topic':
        return pool[hash(message.topic) % pool.length]
      case 'hash_clientid':
        return pool[hash(message.from) % pool.length]
      case 'sticky': {
        const current = pool.find((member) => member.clientid === this.stickyMembers.get(key))
        if (current) return current
        const chosen = pool[Math.floor(Math.random() * pool.length)]
        this.stickyMembers.set(key, chosen.clientid)
        return chosen
      }
      case 'round_robin_per_group': {
        const cursor = ((this.groupCursors.get(key) ?? -1) + 1) % pool.length
        this.groupCursors.set(key, cursor)
        return pool[cursor]
      }
      default: {
        // round_robin: the publisher's own rotation, starting at a random member (as EMQX does).
        let cursors = this.publisherCursors.get(message.from)
        if (!cursors) this.publisherCursors.set(message.from, (cursors = new Map()))
        const previous = cursors.get(key)
        const cursor = previous === undefined ? Math.floor(Math.random() * pool.length) : (previous + 1) % pool.length
        cursors.set(key, cursor)
        return pool[cursor]
      }
    }
  }

  /** A publisher's session ended: its round_robin positions go with it. */
  forgetPublisher(clientid: string): void {
    this.publisherCursors.delete(clientid)
  }
}

/** FNV-1a, for the hash_topic and hash_clientid strategies. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}
