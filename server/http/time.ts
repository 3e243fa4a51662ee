// Times as EMQX's REST API writes and reads them.

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0')
}

/** Epoch ms -> RFC 3339 in local time with milliseconds and offset, e.g. `2024-01-01T12:34:56.789+08:00`. */
export function rfc3339(ms: number): string {
  const date = new Date(ms)
  const offset = -date.getTimezoneOffset()
  const sign = offset >= 0 ? '+' : '-'
  const abs = Math.abs(offset)
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  )
}

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
