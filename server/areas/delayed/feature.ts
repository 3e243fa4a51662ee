// Delayed publish (EMQX `delayed`): `$delayed/{seconds}/{topic}` is kept (in SQLite) and published
// to `{topic}` when its time comes, also after a restart. A number of seconds at or above
// 4294967 is read as the Unix time to publish at, as EMQX does.
import * as v from 'valibot'
import type { DelayedMessage, DelayedRepository } from './store.ts'
import type { Broker } from '../../broker/broker.ts'
import type { Message } from '../../broker/message.ts'
import { isValidTopicName } from '../../broker/topic-trie.ts'
import { HP } from '../../broker/hook-priorities.ts'
import { log } from '../../log/index.ts'

const MAX_INTERVAL = 4_294_967
/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2 ** 31 - 1

export const DelayedConfigSchema = v.object({
  enable: v.optional(v.boolean(), true),
  max_delayed_messages: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(0, 'Max delayed must be equal or greater than 0')),
    0,
  ),
})

export type DelayedConfig = v.InferOutput<typeof DelayedConfigSchema>

export const defaultDelayedConfig: DelayedConfig = v.parse(DelayedConfigSchema, {})

/** `$delayed/{seconds}/{topic}` -> when and where, or undefined when the topic is not a valid delayed one. */
export function parseDelayedTopic(topic: string, now: number): { topic: string; interval: number; expectedAt: number } | undefined {
  const match = /^\$delayed\/(\d+)\/(.+)$/s.exec(topic)
  if (!match || !isValidTopicName(match[2])) return undefined
  const value = Number(match[1])
  const nowSeconds = Math.round(now / 1000)
  if (value < MAX_INTERVAL) return { topic: match[2], interval: value, expectedAt: now + value * 1000 }
  if (value - nowSeconds > MAX_INTERVAL) return undefined
  return { topic: match[2], interval: Math.max(0, value - nowSeconds), expectedAt: value * 1000 }
}

export class DelayedFeature {
  private settings: DelayedConfig = defaultDelayedConfig
  private readonly broker: Broker
  readonly repository: DelayedRepository
  private timer: NodeJS.Timeout | undefined
  private readonly unhook: () => void
  private max = 0
  /** Whether a client id is banned: its delayed messages are not published when due, as in EMQX. */
  private readonly isBanned: (clientid: string) => boolean

  constructor(broker: Broker, repository: DelayedRepository, isBanned: (clientid: string) => boolean = () => false) {
    this.broker = broker
    this.repository = repository
    this.isBanned = isBanned
    this.max = repository.count()
    this.unhook = broker.hooks.add('message.publish', (message) => (message.topic.startsWith('$delayed/') ? this.intercept(message) : undefined), HP.DELAY_PUB)
    this.schedule()
  }

  get config(): DelayedConfig {
    return this.settings
  }

  /** Turning delayed publish off drops every stored delayed message, as EMQX does. */
  configure(config: DelayedConfig): void {
    this.settings = config
    if (!config.enable) this.repository.clear()
    this.schedule()
  }

  stop(): void {
    clearTimeout(this.timer)
    this.unhook()
  }

  count(): number {
    return this.repository.count()
  }

  get maxCount(): number {
    return this.max
  }

  delete(msgid: string): boolean {
    const deleted = this.repository.delete(msgid)
    if (deleted) this.schedule()
    return deleted
  }

  deleteByTopic(topic: string): number {
    const deleted = this.repository.deleteByTopic(topic)
    if (deleted > 0) this.schedule()
    return deleted
  }

  private intercept(message: Message): Message | null | 'stop' | undefined {
    if (!this.settings.enable) return undefined
    // Due a whole number of seconds after the message was published, as EMQX computes it.
    const parsed = parseDelayedTopic(message.topic, message.timestamp)
    if (!parsed) return null
    const limit = this.settings.max_delayed_messages
    if (limit > 0 && this.repository.count() >= limit) {
      this.broker.metrics.inc('messages.dropped')
      this.broker.hooks.run('message.dropped', message, 'delayed_messages_full')
      return 'stop'
    }
    const delayed: DelayedMessage = {
      message: { ...message, topic: parsed.topic },
      publishAt: message.timestamp,
      delayedInterval: parsed.interval,
      expectedAt: parsed.expectedAt,
    }
    this.repository.add(delayed)
    this.max = Math.max(this.max, this.repository.count())
    this.broker.metrics.inc('messages.delayed')
    this.schedule()
    return 'stop'
  }

  /** Arms one timer for the soonest message. */
  private schedule(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    const next = this.repository.nextDue()
    if (next === undefined) return
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(0, next - Date.now()), MAX_TIMER_MS))
    this.timer.unref()
  }

  private fire(): void {
    try {
      for (const { message } of this.repository.takeDue(Date.now())) {
        if (this.isBanned(message.from)) {
          log.warning({ clientid: message.from, id: message.id, topic: message.topic }, 'delayed_message_dropped_client_banned')
          continue
        }
        this.broker.publish(message)
      }
    } catch (error) {
      log.error({ err: error }, 'delayed_publish_failed')
    }
    this.schedule()
  }
}
