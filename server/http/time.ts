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

export { parseTimeFilter } from '../../contract/time.ts'
