// What xterm's onData hands the prompt, as keys: one chunk may hold several keystrokes (fast
// typing), an escape sequence (arrows), or a whole pasted block (bracketed or not). Pure; no DOM.

export type PromptKey =
  | { kind: 'text'; text: string }
  /** Several lines at once: a pasted script. */
  | { kind: 'paste'; text: string }
  | {
      kind:
        | 'enter'
        | 'backspace'
        | 'delete'
        | 'left'
        | 'right'
        | 'up'
        | 'down'
        | 'home'
        | 'end'
        | 'tab'
        | 'interrupt'
        | 'clear'
        | 'search'
        | 'killLine'
        | 'killToEnd'
        | 'killWord'
        | 'escape'
    }

const SEQUENCES: Record<string, PromptKey['kind']> = {
  '\x1b[A': 'up',
  '\x1bOA': 'up',
  '\x1b[B': 'down',
  '\x1bOB': 'down',
  '\x1b[C': 'right',
  '\x1bOC': 'right',
  '\x1b[D': 'left',
  '\x1bOD': 'left',
  '\x1b[H': 'home',
  '\x1bOH': 'home',
  '\x1b[1~': 'home',
  '\x1b[F': 'end',
  '\x1bOF': 'end',
  '\x1b[4~': 'end',
  '\x1b[3~': 'delete',
}

const CONTROLS: Record<string, PromptKey['kind']> = {
  '\r': 'enter',
  '\n': 'enter',
  '\x7f': 'backspace',
  '\b': 'backspace',
  '\t': 'tab',
  '\x03': 'interrupt',
  '\x0c': 'clear',
  '\x12': 'search',
  '\x15': 'killLine',
  '\x0b': 'killToEnd',
  '\x17': 'killWord',
  '\x01': 'home',
  '\x05': 'end',
  '\x02': 'left',
  '\x06': 'right',
  '\x10': 'up',
  '\x0e': 'down',
}

const PASTE_START = '\x1b[200~'
const PASTE_END = '\x1b[201~'

/** Text without control characters: what typing may put into the line. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
}

/** A pasted chunk: several lines become a script, one line is typed text (its newline dropped). */
function pasted(text: string): PromptKey[] {
  const normal = text.replace(/\r\n?/g, '\n')
  const lines = normal.replace(/\n+$/, '').split('\n')
  if (lines.length > 1) return [{ kind: 'paste', text: normal.replace(/\n+$/, '') }]
  const one = printable(lines[0].replace(/\t/g, ' '))
  return one ? [{ kind: 'text', text: one }] : []
}

export function decodeKeys(data: string): PromptKey[] {
  if (data.startsWith(PASTE_START)) {
    const end = data.indexOf(PASTE_END)
    const body = data.slice(PASTE_START.length, end < 0 ? undefined : end)
    const rest = end < 0 ? '' : data.slice(end + PASTE_END.length)
    return [...pasted(body), ...(rest ? decodeKeys(rest) : [])]
  }
  // Without bracketed paste a block arrives as one chunk holding line breaks between text.
  if (/[^\r\n][\r\n]+[^\r\n]/.test(data) && !data.includes('\x1b')) return pasted(data)
  const keys: PromptKey[] = []
  let text = ''
  const flush = () => {
    if (text) keys.push({ kind: 'text', text })
    text = ''
  }
  let i = 0
  while (i < data.length) {
    const sequence = Object.keys(SEQUENCES).find((s) => data.startsWith(s, i))
    if (sequence) {
      flush()
      keys.push({ kind: SEQUENCES[sequence] } as PromptKey)
      i += sequence.length
      continue
    }
    const ch = data[i]
    if (ch === '\x1b') {
      flush()
      // An unknown CSI sequence (a function key) is skipped whole; a lone ESC is Escape.
      const csi = /^\x1b\[[0-9;]*[~A-Za-z]/.exec(data.slice(i))
      if (csi) i += csi[0].length
      else {
        keys.push({ kind: 'escape' })
        i++
      }
      continue
    }
    const control = CONTROLS[ch]
    if (control) {
      flush()
      keys.push({ kind: control } as PromptKey)
      // A CRLF is one Enter.
      i += ch === '\r' && data[i + 1] === '\n' ? 2 : 1
      continue
    }
    text += printable(ch)
    i++
  }
  flush()
  return keys
}
