// Streams every connection's messages into the terminal pane: one line per message, written in the
// store's per-frame batches (never per message), at most MAX_LINES_PER_FRAME lines a frame per
// connection with one line saying how many were left out; the counters stay exact regardless.
import { terminalLog, type TerminalLog } from '../../state/terminalLog.ts'
import type { Translate } from '../../app/commands/runner.ts'
import type { TestClientManager } from '../../testclient/manager.ts'
import type { TestMessage } from '../../testclient/messages/store.ts'
import { MAX_VIEWABLE_PAYLOAD } from '../../testclient/payload.ts'

export const MAX_LINES_PER_FRAME = 500
/** Characters of payload a terminal line shows. */
export const PREVIEW_CHARS = 200

const decoder = new TextDecoder()

export function streamEntry(connection: string, message: TestMessage) {
  const tooLarge = message.payload.length > MAX_VIEWABLE_PAYLOAD
  // Decode only what the preview can show (4 bytes per character at most).
  const head = tooLarge ? '' : decoder.decode(message.payload.subarray(0, PREVIEW_CHARS * 4))
  return {
    source: `ws.${connection}`,
    status: 'info' as const,
    time: message.time,
    stream: {
      direction: message.direction,
      qos: message.qos,
      retain: message.retain,
      topic: message.topic,
      payload: head.slice(0, PREVIEW_CHARS),
      bytes: message.payload.length,
      ...(head.length > PREVIEW_CHARS || message.payload.length > PREVIEW_CHARS * 4 ? { truncated: true } : {}),
      ...(tooLarge ? { tooLarge: true } : {}),
    },
  }
}

/** Writes one frame's batch of a connection's messages to the log. */
export function writeBatch(log: TerminalLog, connection: string, batch: readonly TestMessage[], t: Translate): void {
  const skipped = batch.length - MAX_LINES_PER_FRAME
  if (skipped > 0) log.append({ source: `ws.${connection}`, status: 'info', message: t('testClient.terminalSkipped', { count: skipped }) })
  for (let i = Math.max(0, skipped); i < batch.length; i++) log.append(streamEntry(connection, batch[i]))
}

/** Feeds the terminal from every connection of the manager, including ones added later. */
export function feedTerminal(manager: TestClientManager, t: Translate, log: TerminalLog = terminalLog): () => void {
  const fed = new Map<object, () => void>()
  const sync = () => {
    const current = new Set<object>(manager.list())
    for (const [connection, stop] of fed) if (!current.has(connection)) (stop(), fed.delete(connection))
    for (const connection of manager.list()) {
      if (fed.has(connection)) continue
      fed.set(
        connection,
        connection.store.subscribe((batch) => {
          if (batch.length) writeBatch(log, connection.name, batch, t)
        }),
      )
    }
  }
  sync()
  const stop = manager.subscribe(sync)
  return () => {
    stop()
    for (const unsubscribe of fed.values()) unsubscribe()
    fed.clear()
  }
}
