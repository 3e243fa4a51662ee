// One trace's file: lines appended, joined and written once per event-loop turn, never past the
// size bound (EMQX's trace handler is a `halt` disk log of 512 MB: once full it writes no more).
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs'

export class TraceFile {
  readonly path: string
  private readonly maxBytes: number
  private fd: number | undefined
  /** Bytes on disk plus bytes waiting. */
  private size: number
  private pending: string[] = []
  private scheduled: NodeJS.Immediate | undefined

  constructor(path: string, maxBytes: number) {
    this.path = path
    this.maxBytes = maxBytes
    this.fd = openSync(path, 'a')
    this.size = fstatSync(this.fd).size
  }

  append(line: string): void {
    if (this.fd === undefined) return
    const bytes = Buffer.byteLength(line)
    if (this.size + bytes > this.maxBytes) return
    this.size += bytes
    this.pending.push(line)
    this.scheduled ??= setImmediate(() => this.flush())
  }

  /** Writes what waits now (the log and download endpoints read the file after it). */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled)
    this.scheduled = undefined
    if (this.fd === undefined || this.pending.length === 0) return
    const text = this.pending.length === 1 ? this.pending[0] : this.pending.join('')
    this.pending = []
    writeSync(this.fd, text)
  }

  close(): void {
    this.flush()
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }
}
