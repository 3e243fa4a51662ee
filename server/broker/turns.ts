// What the broker does at the end of each turn of the event loop, for all connections at once: the
// packets each connection gathered during the turn leave in one system call per connection
// (writev), with one immediate for the whole broker rather than one per connection.

export interface TurnWriter {
  /** Writes what was gathered during the turn. */
  flush(): void
}

export class Turns {
  private scheduled = false
  private writers: TurnWriter[] = []

  /** A connection with writes to flush at the end of this turn. */
  gathered(writer: TurnWriter): void {
    this.writers.push(writer)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.endOfTurn)
  }

  private readonly endOfTurn = (): void => {
    this.scheduled = false
    const writers = this.writers
    this.writers = []
    for (const writer of writers) writer.flush()
  }
}
