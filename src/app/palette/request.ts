// Asking the palette to open somewhere other than its list: a command's form filled in (deep links,
// re-running a history entry), the history, or the script view. The palette host opens on any
// request and takes it; nothing here runs a command.
import { atom } from 'jotai'
import type { Store } from 'jotai'
import type { AnyCommand, HistoryEffects } from '../../../commands/define.ts'
import { formatArgs } from '../../../commands/args.ts'
import { getCommand } from '../../../commands/registry.ts'
import { formatScriptLine } from '../../../commands/script/execute.ts'
import { clearHistory, entriesInRange, historyAtom, historyScript } from '../../state/history.ts'
import { notify } from '../../state/notifications.ts'
import { i18n } from '../i18n.ts'

export type PaletteRequest =
  | { kind: 'form'; command: AnyCommand; values: Record<string, string> }
  | { kind: 'history' }
  | { kind: 'script'; text: string }

export const paletteRequestAtom = atom<PaletteRequest | null>(null)

/** Arguments as the form's text values: strings as they are, anything else as JSON. */
export function formValuesOf(args: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {}
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue
    values[name] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  return values
}

/** One history entry as a script line; a command no longer registered keeps its id and arguments. */
export function scriptLineOf(id: string, args: Record<string, unknown>): string {
  const command = getCommand(id)
  if (command) return formatScriptLine(command, args)
  const rest = formatArgs(args)
  return rest ? `${id} ${rest}` : id
}

/** Writes text to the clipboard; falls back to a hidden text area where the async API is refused. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    return
  } catch {
    // Not a secure context, or no permission: the older way still works from a key press or click.
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
  document.body.append(area)
  area.select()
  const copied = document.execCommand('copy')
  area.remove()
  previous?.focus({ preventScroll: true })
  if (!copied) throw new Error(i18n.t('history.copyFailed'))
}

/** The browser side of the history commands (commands/history.ts). */
export function historyEffects(store: Store): HistoryEffects {
  return {
    show: () => store.set(paletteRequestAtom, { kind: 'history' }),
    openScript: (text) => store.set(paletteRequestAtom, { kind: 'script', text }),
    async copy({ from, to }) {
      const entries = entriesInRange(store.get(historyAtom), from, to)
      if (entries.length === 0) throw new Error(i18n.t('history.nothingToCopy'))
      await copyText(historyScript(entries, scriptLineOf))
      notify(store, { kind: 'success', text: { key: 'history.copied', values: { count: entries.length } } })
      return entries.length
    },
    clear: () => clearHistory(store),
  }
}
