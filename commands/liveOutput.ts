// A LiveOutput over a line writer: the CLI's (stdout) and a test's. The stream stops when `signal`
// aborts (the CLI's Ctrl+C). The browser's, over the terminal pane, is src/state/liveStreams.ts.
import type { LiveFrame, LiveOutput, LiveStream, Text } from './define.ts'

export interface LineWriterOptions {
  /** Writes one line of a stream; notes arrive translated. */
  write(source: string, text: string): void
  translate(text: Text): string
  /** Writes a frame (watch's table); left out, its lines are written as lines. */
  frame?(source: string, frame: LiveFrame): void
  signal?: AbortSignal
  brokerHost?: string
}

export function lineWriterOutput(options: LineWriterOptions): LiveOutput {
  return {
    ...(options.brokerHost ? { brokerHost: options.brokerHost } : {}),
    open(source: string): LiveStream {
      const controller = new AbortController()
      const stop = () => controller.abort()
      options.signal?.addEventListener('abort', stop, { once: true })
      if (options.signal?.aborted) stop()
      return {
        signal: controller.signal,
        line: (text) => options.write(source, typeof text === 'string' ? text : options.translate(text)),
        ...(options.frame ? { frame: (frame: LiveFrame) => options.frame!(source, frame) } : {}),
        close: () => options.signal?.removeEventListener('abort', stop),
      }
    },
  }
}
