// Keyboard shortcuts declared on commands (`g c`, `mod+k`): parsing, display, and sequence matching.
// Pure; PaletteHost installs the listener.

export interface KeyStroke {
  key: string
  mod: boolean
  shift: boolean
  alt: boolean
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

/** `g c` → two strokes; `mod+k` → one stroke with Ctrl (Cmd on macOS). */
export function parseShortcut(shortcut: string): KeyStroke[] {
  return shortcut
    .trim()
    .split(/\s+/)
    .map((part) => {
      const pieces = part.split('+')
      const key = pieces.pop() ?? ''
      const mods = new Set(pieces.map((p) => p.toLowerCase()))
      return { key: key.toLowerCase(), mod: mods.has('mod') || mods.has('ctrl') || mods.has('cmd'), shift: mods.has('shift'), alt: mods.has('alt') }
    })
}

/** The keys to draw in `.kbd`s, one array per stroke. */
export function shortcutLabels(shortcut: string): string[][] {
  return parseShortcut(shortcut).map((stroke) => {
    const keys: string[] = []
    if (stroke.mod) keys.push(isMac ? '⌘' : 'Ctrl')
    if (stroke.alt) keys.push(isMac ? '⌥' : 'Alt')
    if (stroke.shift) keys.push(isMac ? '⇧' : 'Shift')
    keys.push(stroke.key.length === 1 ? stroke.key.toUpperCase() : stroke.key)
    return keys
  })
}

export function strokeOf(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): KeyStroke {
  const printable = event.key.length === 1
  return {
    key: event.key.toLowerCase(),
    mod: event.ctrlKey || event.metaKey,
    // Shift is part of printable keys already ('?' vs '/'); only count it for named keys.
    shift: printable ? false : event.shiftKey,
    alt: event.altKey,
  }
}

function sameStroke(a: KeyStroke, b: KeyStroke): boolean {
  return a.key === b.key && a.mod === b.mod && a.shift === b.shift && a.alt === b.alt
}

/**
 * Given the strokes typed so far, which shortcut (if any) is complete and whether some shortcut
 * could still complete with more strokes.
 */
export function matchStrokes<T>(
  typed: KeyStroke[],
  bindings: readonly { strokes: KeyStroke[]; value: T }[],
): { match?: T; pending: boolean } {
  let pending = false
  for (const binding of bindings) {
    if (binding.strokes.length < typed.length) continue
    if (!typed.every((stroke, i) => sameStroke(stroke, binding.strokes[i]))) continue
    if (binding.strokes.length === typed.length) return { match: binding.value, pending: false }
    pending = true
  }
  return { pending }
}

/** Typing in a field must not trigger single-letter shortcuts. */
export function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  // The terminal pane's textarea is its prompt: typing there is typing, as in any input.
  const tag = target.tagName
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT'
}

/** Ctrl+K / Cmd+K: the palette, from anywhere. */
export function isPaletteKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k'
}

/** Ctrl+` : the terminal pane (Ctrl on macOS too, as in editors). */
export function isTerminalToggleKey(event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return event.ctrlKey && !event.metaKey && !event.altKey && (event.code === 'Backquote' || event.key === '`')
}
