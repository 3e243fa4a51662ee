// The terminal pane's prompt: a line editor drawn at the bottom of the xterm, with output printed
// above it (log lines, tables, candidates) and the line redrawn under them. Up/Down walk the
// history, Ctrl+R searches it backwards as bash does, Tab completes, Ctrl+C cancels the line or
// stops what runs, Ctrl+L clears. What a line does is the host's (TerminalDock wires the runner):
// this file knows no React, no DOM and no API, so Node tests drive it with strings.
import { decodeKeys, type PromptKey } from './keys.ts'
import type { Completion } from '../../../commands/completeLine.ts'
import { cellWidth } from '../../../commands/format/width.ts'

export interface PromptHost {
  /** Raw output to the terminal (escape sequences included). */
  write(text: string): void
  /** The terminal's width in columns. */
  columns(): number
  /** Runs one line (a script of one line); resolves when it is done. */
  run(line: string): Promise<void>
  /** A pasted block of several lines: planned, confirmed and run as a script. */
  runScript(text: string): Promise<void>
  complete(line: string, cursor: number, signal: AbortSignal): Promise<Completion>
  /** Earlier lines, oldest first. */
  history(): readonly string[]
  /** Ctrl+C while something runs: stop it (a live stream, a watch, a script). */
  interrupt(): void
  /** Ctrl+L: the screen and the kept log cleared. */
  clear(): void
  /** Translated labels. */
  labels: PromptLabels
}

export interface PromptLabels {
  /** `(reverse-i-search)` */
  search: string
  /** `(failed reverse-i-search)` */
  searchFailed: string
}

export const PROMPT = '\x1b[1;34m›\x1b[0m '
const PROMPT_WIDTH = 2

type Mode = { kind: 'edit' } | { kind: 'search'; query: string; index: number; failed: boolean } | { kind: 'busy' }

export class PromptSession {
  private text = ''
  private cursor = 0
  private mode: Mode = { kind: 'edit' }
  /** Position in the history while walking it; `history.length` is the line being typed. */
  private walk: number | null = null
  /** The line being typed when the walk started, given back past the newest entry. */
  private draft = ''
  /** Rows of the drawn prompt above the terminal's cursor, to erase it before output. */
  private rowsAbove = 0
  private drawn = false
  private completing: AbortController | null = null
  /** Lines typed here, also those that never ran (a typo), so Up recalls them too. */
  private typed: string[] = []
  private prints = 0

  private readonly host: PromptHost

  constructor(host: PromptHost) {
    this.host = host
  }

  /** Draws the prompt (once the terminal is ready). */
  start(): void {
    this.draw()
  }

  get line(): string {
    return this.text
  }

  get busy(): boolean {
    return this.mode.kind === 'busy'
  }

  /** How many times output was printed: a frame redraws in place only when nothing came after it. */
  get printCount(): number {
    return this.prints
  }

  /** Output above the prompt: the prompt is erased, the text written, the prompt drawn again. */
  print(text: string): void {
    if (!text) return
    this.prints++
    this.erase()
    this.host.write(text)
    this.draw()
  }

  /** The screen was cleared under the prompt (the dock's Clear button): draw it again at the top. */
  screenCleared(): void {
    this.drawn = false
    this.rowsAbove = 0
    this.draw()
  }

  input(data: string): void {
    for (const key of decodeKeys(data)) this.key(key)
  }

  private key(key: PromptKey): void {
    if (this.mode.kind === 'busy') {
      if (key.kind === 'interrupt') {
        this.print('^C\r\n')
        this.host.interrupt()
      }
      return
    }
    if (this.mode.kind === 'search') return this.searchKey(key, this.mode)
    switch (key.kind) {
      case 'text':
        return this.edit(this.text.slice(0, this.cursor) + key.text + this.text.slice(this.cursor), this.cursor + key.text.length)
      case 'paste':
        return void this.submit(key.text, true)
      case 'enter':
        return void this.submit(this.text, false)
      case 'backspace':
        if (this.cursor === 0) return
        return this.edit(this.text.slice(0, this.cursor - 1) + this.text.slice(this.cursor), this.cursor - 1)
      case 'delete':
        return this.edit(this.text.slice(0, this.cursor) + this.text.slice(this.cursor + 1), this.cursor)
      case 'left':
        return this.edit(this.text, Math.max(0, this.cursor - 1))
      case 'right':
        return this.edit(this.text, Math.min(this.text.length, this.cursor + 1))
      case 'home':
        return this.edit(this.text, 0)
      case 'end':
        return this.edit(this.text, this.text.length)
      case 'killLine':
        return this.edit(this.text.slice(this.cursor), 0)
      case 'killToEnd':
        return this.edit(this.text.slice(0, this.cursor), this.cursor)
      case 'killWord': {
        const head = this.text.slice(0, this.cursor).replace(/\S+\s*$/, '')
        return this.edit(head + this.text.slice(this.cursor), head.length)
      }
      case 'up':
        return this.step(-1)
      case 'down':
        return this.step(1)
      case 'tab':
        return void this.tab()
      case 'interrupt':
        // The line is abandoned where it stands, as a shell shows it, and a fresh prompt starts.
        this.completing?.abort()
        this.erase()
        this.host.write(`${PROMPT}${visible(this.text)}^C\r\n`)
        this.drawn = false
        this.reset()
        return this.draw()
      case 'clear':
        // The host clears the screen (and may call screenCleared, which draws the prompt again).
        this.drawn = false
        this.rowsAbove = 0
        this.host.clear()
        return this.draw()
      case 'search':
        this.mode = { kind: 'search', query: '', index: this.lines().length, failed: false }
        return this.redraw()
      case 'escape':
        return
    }
  }

  private searchKey(key: PromptKey, search: Extract<Mode, { kind: 'search' }>): void {
    const lines = this.lines()
    const find = (query: string, from: number): number => {
      for (let i = Math.min(from, lines.length - 1); i >= 0; i--) if (query && lines[i].includes(query)) return i
      return -1
    }
    const accept = () => {
      const found = search.index < lines.length && !search.failed ? lines[search.index] : this.text
      this.mode = { kind: 'edit' }
      this.edit(found, found.length)
    }
    switch (key.kind) {
      case 'text':
      case 'backspace': {
        const query = key.kind === 'text' ? search.query + key.text : search.query.slice(0, -1)
        // From the line found so far: backspacing out of a failed search lands where it was.
        const at = find(query, search.index)
        this.mode = { kind: 'search', query, index: at < 0 ? search.index : at, failed: query !== '' && at < 0 }
        return this.redraw()
      }
      case 'search': {
        // Ctrl+R again: the next older match.
        const at = find(search.query, search.index - 1)
        this.mode = { ...search, index: at < 0 ? search.index : at, failed: at < 0 }
        return this.redraw()
      }
      case 'enter':
        accept()
        return void this.submit(this.text, false)
      case 'interrupt':
      case 'escape':
        this.mode = { kind: 'edit' }
        return this.redraw()
      default:
        // Any editing key takes the found line into the editor and acts on it there.
        accept()
        return this.key(key)
    }
  }

  /** Every earlier line, oldest first: the command history, then lines typed here that did not run. */
  private lines(): string[] {
    const known = [...this.host.history()]
    for (const line of this.typed) if (!known.includes(line)) known.push(line)
    return known
  }

  private step(direction: -1 | 1): void {
    const lines = this.lines()
    const at = this.walk ?? lines.length
    const next = Math.max(0, Math.min(lines.length, at + direction))
    if (next === at) return
    if (this.walk === null) this.draft = this.text
    this.walk = next
    const text = next === lines.length ? this.draft : lines[next]
    this.edit(text, text.length, true)
  }

  private async tab(): Promise<void> {
    this.completing?.abort()
    const controller = new AbortController()
    this.completing = controller
    const [line, cursor] = [this.text, this.cursor]
    let completion: Completion
    try {
      completion = await this.host.complete(line, cursor, controller.signal)
    } catch {
      return // the lookup failed or was stopped: the line stays as typed
    }
    // Typing went on while the server answered: that wins.
    if (controller.signal.aborted || this.text !== line || this.cursor !== cursor || this.mode.kind !== 'edit') return
    this.completing = null
    if (completion.candidates.length) this.print(`${columnsOf(completion.candidates, this.host.columns())}\r\n`)
    this.edit(completion.text, completion.cursor)
  }

  private async submit(text: string, script: boolean): Promise<void> {
    this.completing?.abort()
    // The line stays on screen as typed; the output comes under it.
    this.erase()
    this.host.write(script ? `${PROMPT}${visible(text.split('\n')[0])} …\r\n` : `${PROMPT}${visible(text)}\r\n`)
    this.drawn = false
    this.reset()
    const trimmed = text.trim()
    if (trimmed === '') return this.draw()
    if (!script) this.typed = [...this.typed.filter((l) => l !== trimmed), trimmed].slice(-200)
    this.mode = { kind: 'busy' }
    try {
      await (script ? this.host.runScript(text) : this.host.run(trimmed))
    } finally {
      this.mode = { kind: 'edit' }
      this.draw()
    }
  }

  private reset(): void {
    this.text = ''
    this.cursor = 0
    this.walk = null
    this.draft = ''
  }

  private edit(text: string, cursor: number, walking = false): void {
    if (!walking) this.walk = null
    this.text = text
    this.cursor = cursor
    this.redraw()
  }

  private redraw(): void {
    this.erase()
    this.draw()
  }

  /** Moves to the prompt's first row and clears from there down. */
  private erase(): void {
    if (!this.drawn) return
    this.host.write(`${this.rowsAbove ? `\x1b[${this.rowsAbove}A` : ''}\r\x1b[J`)
    this.drawn = false
    this.rowsAbove = 0
  }

  private draw(): void {
    if (this.drawn || this.mode.kind === 'busy') return
    const columns = Math.max(10, this.host.columns())
    let head: string
    let body: string
    let cursorAt: number
    if (this.mode.kind === 'search') {
      const { query, index, failed } = this.mode
      const label = failed ? this.host.labels.searchFailed : this.host.labels.search
      const lines = this.lines()
      const found = index < lines.length ? lines[index] : ''
      head = `${label}\`${visible(query)}': `
      body = visible(found)
      cursorAt = cellWidth(head) + cellWidth(visible(found.slice(0, Math.max(0, found.indexOf(query)))))
      this.host.write(head + body)
    } else {
      head = PROMPT
      body = visible(this.text)
      cursorAt = PROMPT_WIDTH + cellWidth(visible(this.text.slice(0, this.cursor)))
      this.host.write(head + body)
    }
    const length = (this.mode.kind === 'search' ? cellWidth(head) : PROMPT_WIDTH) + cellWidth(body)
    const endRow = Math.floor(Math.max(0, length - 1) / columns)
    const cursorRow = Math.floor(cursorAt / columns)
    // The cursor goes back from the end of the text to where it edits.
    let move = ''
    if (endRow > cursorRow) move += `\x1b[${endRow - cursorRow}A`
    else if (cursorRow > endRow) move += '\r\n'
    move += `\x1b[${(cursorAt % columns) + 1}G`
    this.host.write(move)
    this.rowsAbove = cursorRow
    this.drawn = true
  }
}

/** What is typed, shown: nothing typed can be a control character (keys.ts drops them), tabs as spaces. */
function visible(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
}

/** Candidates in columns across the pane, as a shell lists them. */
export function columnsOf(candidates: readonly string[], columns: number): string {
  const width = Math.min(Math.max(...candidates.map((c) => cellWidth(c))) + 2, Math.max(10, columns))
  const perRow = Math.max(1, Math.floor(columns / width))
  const rows: string[] = []
  for (let i = 0; i < candidates.length; i += perRow)
    rows.push(
      candidates
        .slice(i, i + perRow)
        .map((c) => visible(c) + ' '.repeat(Math.max(0, width - cellWidth(c))))
        .join('')
        .trimEnd(),
    )
  return rows.join('\r\n')
}
