// EMQX's log levels as pino's: each level's number, and the threshold a handler's level sets.
import type { LogLevel } from '../../contract/log.ts'

/** The levels a record is logged at (EMQX's, without `all`), with their pino numbers. */
export const LEVEL_VALUES = {
  debug: 20,
  info: 30,
  notice: 35,
  warning: 40,
  error: 50,
  critical: 55,
  alert: 58,
  emergency: 60,
} as const

export type RecordLevel = keyof typeof LEVEL_VALUES

/** The lowest number a handler at `level` lets through (`all` lets everything through). */
export function threshold(level: LogLevel): number {
  return level === 'all' ? 0 : LEVEL_VALUES[level]
}

const NAMES = new Map<number, RecordLevel>(Object.entries(LEVEL_VALUES).map(([name, value]) => [value, name as RecordLevel]))

/** The level name of a pino number (a number between two levels is named by the one below it). */
export function levelName(value: number): RecordLevel {
  const exact = NAMES.get(value)
  if (exact) return exact
  let name: RecordLevel = 'debug'
  for (const [level, number] of Object.entries(LEVEL_VALUES)) if (number <= value) name = level as RecordLevel
  return name
}
