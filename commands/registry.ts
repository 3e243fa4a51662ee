// The command registry: lookup by id and by group over `allCommands`, plus argument validation
// and description (from ./args.ts) so callers need one import.
import type { AnyCommand } from './define.ts'
import { allCommands } from './index.ts'

export { validateArgs, describeArgs, coerceValue, formatArgs, quoteArg } from './args.ts'
export type { FieldDescriptor, FieldError, FieldKind, ValidationResult } from './args.ts'

export interface CommandGroup {
  /** i18n key, e.g. `cmdGroup.navigation`. */
  group: string
  commands: AnyCommand[]
}

export interface Registry {
  /** By id, or by the bare word a command line may use instead (`watch`). */
  get(id: string): AnyCommand | undefined
  list(): readonly AnyCommand[]
  /** Groups in the order their first command appears. */
  groups(): CommandGroup[]
}

const DOTTED_ID = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/
const BARE_WORD = /^[a-z][a-z0-9]*$/

export function createRegistry(commands: readonly AnyCommand[]): Registry {
  const byId = new Map<string, AnyCommand>()
  for (const command of commands) {
    if (!DOTTED_ID.test(command.id)) throw new Error(`Command id must be dotted: ${command.id}`)
    if (byId.has(command.id)) throw new Error(`Duplicate command id: ${command.id}`)
    byId.set(command.id, command)
  }
  // A line may start with a command's bare word instead of its id (`watch`); words are not ids.
  const byWord = new Map<string, AnyCommand>()
  for (const command of commands) {
    if (!command.word) continue
    if (!BARE_WORD.test(command.word) || byId.has(command.word) || byWord.has(command.word)) throw new Error(`Command word must be one free word: ${command.word}`)
    byWord.set(command.word, command)
  }
  const grouped = new Map<string, AnyCommand[]>()
  for (const command of commands) {
    const list = grouped.get(command.group) ?? []
    list.push(command)
    grouped.set(command.group, list)
  }
  const groups = [...grouped].map(([group, list]) => ({ group, commands: list }))
  return {
    get: (id) => byId.get(id) ?? byWord.get(id),
    list: () => commands,
    groups: () => groups,
  }
}

export const registry: Registry = createRegistry(allCommands)

export function getCommand(id: string): AnyCommand | undefined {
  return registry.get(id)
}

export function listCommands(): readonly AnyCommand[] {
  return registry.list()
}

export function commandsByGroup(): CommandGroup[] {
  return registry.groups()
}
