// EMQX's rate of a growing counter, as authenticators, authorization sources and their backends
// report it: per second over the last sample, the highest seen, and the mean of the last five
// minutes' samples.
const FIVE_MINUTES_MS = 300_000

const round = (n: number) => Math.round(n * 100) / 100

export class RateMeter {
  private current = 0
  private max = 0
  private last = 0
  private readonly window: number[] = []

  /** Samples `count` now, `tickMs` after the last sample. */
  tick(count: number, tickMs: number): void {
    this.current = round((count - this.last) / (tickMs / 1000))
    this.last = count
    this.max = Math.max(this.max, this.current)
    this.window.push(this.current)
    if (this.window.length > Math.max(1, Math.round(FIVE_MINUTES_MS / tickMs))) this.window.shift()
  }

  snapshot(): { rate: number; rate_max: number; rate_last5m: number } {
    const last5m = this.window.length === 0 ? 0 : round(this.window.reduce((sum, rate) => sum + rate, 0) / this.window.length)
    return { rate: this.current, rate_max: this.max, rate_last5m: last5m }
  }
}
