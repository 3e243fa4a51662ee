// What the broker does at the end of each turn of the event loop, for all connections at once:
// the packets each connection gathered during the turn leave in one write per connection (joined
// into one buffer), with one immediate for the whole broker rather than one per connection; and a budget
// of packets to handle is shared out, so that a flood of publishes cannot hold up the
// acknowledgements that let deliveries go on.
//
// Without the budget, a turn handled everything every socket had sent: under 50 publishers with 20
// messages in flight each, a turn handled a thousand publishes, and a subscriber, whose inflight
// window refills only when its PUBACKs are read, got one window a turn. Acknowledgements cost no
// budget; what a connection has over budget waits in its input for a later turn, in turn. The
// budget holds only while some connected subscriber has messages queued behind its inflight window
// (a backlog): otherwise nothing waits on acknowledgements, and slicing the work would only cost.

/**
 * Packets (other than acknowledgements) handled per turn across all connections, while a subscriber
 * has a backlog. Measured on 2 cores: 64 doubled the flood's deliveries but cost the closed-loop
 * QoS 1 fan-in a third; 256 the other way round; 96 kept both near or above mosquitto's (0.94x to 1.4x).
 */
export const PACKETS_PER_TURN = 96

export interface TurnReader {
  /** Handles up to `limit` of the packets it holds back; true while some are still held back. */
  readHeldBack(limit: number): boolean
}

export interface TurnWriter {
  /** Writes what was gathered during the turn. */
  flush(): void
}

export class Turns {
  private budget = PACKETS_PER_TURN
  private scheduled = false
  private writers: TurnWriter[] = []
  private readers: TurnReader[] = []
  /** Connected sessions with messages queued behind a full inflight window (kept by Session). */
  backlogged = 0

  /** Takes one packet from this turn's budget; false when it is spent (the caller holds the rest back). */
  take(): boolean {
    if (this.backlogged === 0 && this.readers.length === 0) return true
    if (this.budget <= 0) return false
    if (this.budget === PACKETS_PER_TURN) this.schedule()
    this.budget--
    return true
  }

  /** A connection holding packets back until a later turn. */
  holdBack(reader: TurnReader): void {
    this.readers.push(reader)
    this.schedule()
  }

  /** A connection with writes to flush at the end of this turn. */
  gathered(writer: TurnWriter): void {
    this.writers.push(writer)
    this.schedule()
  }

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.endOfTurn)
  }

  private readonly endOfTurn = (): void => {
    this.scheduled = false
    const writers = this.writers
    this.writers = []
    for (const writer of writers) writer.flush()
    // A new turn's budget, shared round robin among the connections held back, an equal share each.
    this.budget = PACKETS_PER_TURN
    let readers = this.readers
    this.readers = []
    while (readers.length > 0 && this.budget > 0) {
      const share = Math.max(1, Math.floor(this.budget / readers.length))
      readers = readers.filter((reader) => this.budget <= 0 || reader.readHeldBack(share))
    }
    // The ones still holding back go first next turn.
    if (readers.length > 0) {
      this.readers = readers.concat(this.readers)
      this.schedule()
    }
  }
}
