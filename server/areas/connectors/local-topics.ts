// Actions' `local_topic` (emqx_bridge_v2:on_message_publish): a message published on a topic matching
// an enabled action's local_topic is sent to that action without a rule, as the rule engine's
// message columns. The hook is on the broker only while some action has a local topic.
import type { Broker } from '../../broker/broker.ts'
import { HP } from '../../broker/hook-priorities.ts'
import type { Message } from '../../broker/message.ts'
import { TopicTrie } from '../../broker/topic-trie.ts'
import { publishColumns } from '../../rules/engine/publish-context.ts'
import { isSysMessage } from '../../rules/events/index.ts'

export class LocalTopics {
  private readonly broker: Broker
  private readonly send: (actionId: string, row: Record<string, unknown>) => void
  private readonly trie = new TopicTrie<string>()
  private readonly filters = new Map<string, string>()
  private unhook: (() => void) | undefined

  constructor(broker: Broker, send: (actionId: string, row: Record<string, unknown>) => void) {
    this.broker = broker
    this.send = send
  }

  /** Sets (or with undefined removes) the local topic of an action. */
  set(actionId: string, filter: string | undefined): void {
    const before = this.filters.get(actionId)
    if (before !== undefined) this.trie.remove(before, actionId)
    this.filters.delete(actionId)
    if (filter) {
      this.trie.add(filter, actionId, actionId)
      this.filters.set(actionId, filter)
    }
    if (this.filters.size > 0 && !this.unhook) this.unhook = this.broker.hooks.add('message.publish', (message) => this.onPublish(message), HP.BRIDGE)
    if (this.filters.size === 0) this.stop()
  }

  stop(): void {
    this.unhook?.()
    this.unhook = undefined
  }

  private onPublish(message: Message): undefined {
    if (isSysMessage(message)) return undefined
    const matched: string[] = []
    this.trie.match(message.topic, (actionId) => matched.push(actionId))
    if (matched.length === 0) return undefined
    const columns = publishColumns(message, this.broker)
    for (const actionId of new Set(matched)) this.send(actionId, { ...columns })
    return undefined
  }
}
