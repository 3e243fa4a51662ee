// Times as EMQX's REST API reads them, for both sides.

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/

/**
 * A time filter value -> epoch ms, or undefined when it is not a time.
 * EMQX's console sends epoch seconds; EMQX 5's API schema also takes epoch milliseconds and RFC 3339.
 * Integers below 10^11 are read as seconds (10^11 s is the year 5138; 10^11 ms is 1973).
 */
export function parseTimeFilter(raw: string): number | undefined {
  if (/^\d+$/.test(raw)) {
    const value = Number(raw)
    return value < 1e11 ? value * 1000 : value
  }
  if (!RFC3339.test(raw)) return undefined
  const ms = Date.parse(raw)
  return Number.isNaN(ms) ? undefined : ms
}
