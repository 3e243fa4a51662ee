// The streams commands run into the terminal pane (rule.tap): each line is a terminal log entry as
// it arrives, and the pane stops them: its Stop button, or closing it. Headless, so Node tests use
// the same registry the browser does.
import type { LiveOutput, LiveStream, Text } from '../../commands/define.ts'
import { terminalLog, type TerminalLog } from './terminalLog.ts'

/** Columns a frame is fitted to when it goes into the log (no pane measures it there). */
const FRAME_WIDTH = 120

export interface RunningStream {
  /** The command id the lines are logged under. */
  source: string
  stop(): void
}

export interface LiveStreams {
  /** The LiveOutput a command context carries; notes are translated with `translate`. */
  output(translate: (text: Text) => string): LiveOutput
  running(): readonly RunningStream[]
  /** Stops every running stream (the pane closed, or its Stop button). */
  stopAll(): void
  /** Told when a stream starts or ends. */
  subscribe(listener: () => void): () => void
}

export function createLiveStreams(log: TerminalLog): LiveStreams {
  let running: RunningStream[] = []
  const listeners = new Set<() => void>()
  const changed = () => {
    for (const listener of listeners) listener()
  }

  return {
    output(translate) {
      return {
        open(source: string): LiveStream {
          const controller = new AbortController()
          const entry: RunningStream = { source, stop: () => controller.abort() }
          running = [...running, entry]
          changed()
          return {
            signal: controller.signal,
            line(text) {
              log.append({ source, status: 'info', message: typeof text === 'string' ? text : translate(text) })
            },
            // Here a frame follows as lines of the log; the prompt's own output redraws it in place.
            frame(frame) {
              for (const line of frame.render({ width: FRAME_WIDTH, colour: false, translate })) log.append({ source, status: 'info', message: line })
            },
            close() {
              if (!running.includes(entry)) return
              running = running.filter((r) => r !== entry)
              changed()
            },
          }
        },
      }
    },
    running: () => running,
    stopAll() {
      for (const stream of running) stream.stop()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

/** The page's live streams, over its terminal log. */
export const liveStreams: LiveStreams = createLiveStreams(terminalLog)
