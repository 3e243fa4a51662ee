// `sub topic=… qos=…`: subscribes on a private connection of the test client's engine (the
// browser's default test connection's broker; in the CLI the WebSocket listener of the API's host)
// and prints every message into the pane or stdout until stopped: Ctrl+C, Stop, closing the pane.
import * as v from 'valibot'
import { completeTopic, qosArg, topicFilterArg } from './clients.ts'
import { CommandError, defineCommand, type CommandContext } from './define.ts'
import { escapeControl } from './format/escapeControl.ts'
import { randomId } from '../src/testclient/connectionSettings.ts'
import type { TestMessage } from '../src/testclient/messages/store.ts'

/** Longest payload text a line shows; the size is always said. */
export const PAYLOAD_PREVIEW = 200

export interface SubResult {
  /** How many messages arrived before it was stopped. */
  received: number
}

/** One message as one line: `t/1 q1 r {"a":1} (7 B)`, control characters written out. */
export function messageLine(message: Pick<TestMessage, 'topic' | 'qos' | 'retain' | 'payload'>): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(message.payload)
  const preview = text.length > PAYLOAD_PREVIEW ? `${text.slice(0, PAYLOAD_PREVIEW - 1)}…` : text
  return `${escapeControl(message.topic)} q${message.qos}${message.retain ? ' r' : ''} ${escapeControl(preview)} (${message.payload.byteLength} B)`
}

/** The tap's connection errors, in a subscription's words. */
function ownError(error: unknown): unknown {
  if (error instanceof CommandError && error.text.key === 'ruleTap.err.noWebSocket') return new CommandError({ key: 'cmd.sub.noWebSocket' })
  if (error instanceof CommandError && error.text.key === 'ruleTap.err.noBroker') return new CommandError({ key: 'cmd.sub.noBroker' })
  return error
}

export const subCommand = defineCommand({
  id: 'live.sub',
  word: 'sub',
  title: 'cmd.sub.title',
  group: 'cmdGroup.live',
  aliases: ['sub', 'subscribe', 'listen', '订阅'],
  readOnly: true,
  args: v.object({ topic: topicFilterArg(), qos: qosArg() }),
  positional: ['topic', 'qos'],
  complete: { topic: completeTopic },
  suggestOnly: ['topic'],
  describe: ({ topic, qos }) => ({ key: 'cmd.sub.describe', values: { topic, qos } }),
  resultText: (result: SubResult) => ({ key: 'cmd.sub.result', values: { count: result.received } }),
  async run(ctx: CommandContext, { topic, qos }): Promise<SubResult> {
    const stream = ctx.live?.open('live.sub')
    if (!stream) throw new CommandError({ key: 'cmd.watch.noOutput' })
    let received = 0
    let subscription: { close(): Promise<void> } | undefined
    try {
      // Loaded on first use: the browser's command registry does not carry mqtt.js.
      const { openTapSubscription } = await import('./ruleTapConnection.ts')
      subscription = await openTapSubscription(
        ctx,
        `console_sub_${randomId(8)}`,
        topic,
        {},
        (message) => {
          received++
          stream.line(messageLine(message))
        },
        qos,
      ).catch((error: unknown) => Promise.reject(ownError(error)))
      stream.line({ key: 'cmd.sub.started', values: { topic, qos } })
      await new Promise<void>((resolve) => {
        if (stream.signal.aborted) return resolve()
        stream.signal.addEventListener('abort', () => resolve(), { once: true })
      })
      return { received }
    } finally {
      await subscription?.close()
      stream.close()
    }
  },
})

export const subCommands = [subCommand]
