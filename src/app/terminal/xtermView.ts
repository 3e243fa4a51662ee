// The xterm.js side of the terminal pane. Loaded with a dynamic import the first time the pane
// opens, so the login page and first screen do not ship xterm.
import { FitAddon } from '@xterm/addon-fit'
import { Terminal, type ITheme } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'

export interface TerminalView {
  write(text: string): void
  /** What is typed or pasted (pastes bracketed), as xterm encodes keys. */
  onData(listener: (data: string) => void): () => void
  columns(): number
  clear(): void
  fit(): void
  focus(): void
  setTheme(theme: ITheme): void
  dispose(): void
}

export interface TerminalViewOptions {
  theme: ITheme
  fontFamily: string
  scrollback: number
  /** Keys the page handles (palette, dock toggle): xterm must not swallow them. */
  passThrough(event: KeyboardEvent): boolean
}

export function createTerminalView(element: HTMLElement, options: TerminalViewOptions): TerminalView {
  const terminal = new Terminal({
    theme: options.theme,
    fontFamily: options.fontFamily,
    fontSize: 12.5,
    lineHeight: 1.25,
    scrollback: options.scrollback,
    // The prompt (prompt.ts) takes what is typed; xterm only sends it on.
    disableStdin: false,
    cursorBlink: false,
    cursorStyle: 'bar',
    cursorInactiveStyle: 'outline',
    convertEol: false,
    allowProposedApi: false,
  })
  const fitAddon = new FitAddon()
  terminal.loadAddon(fitAddon)
  terminal.attachCustomKeyEventHandler((event) => !options.passThrough(event))
  terminal.open(element)
  fitAddon.fit()
  // A pasted block arrives between markers (bracketed paste), so it is told from typing; again after every reset.
  const BRACKETED_PASTE = '\x1b[?2004h'
  terminal.write(BRACKETED_PASTE)

  return {
    write: (text) => terminal.write(text),
    onData: (listener) => {
      const subscription = terminal.onData(listener)
      return () => subscription.dispose()
    },
    columns: () => terminal.cols,
    clear: () => {
      terminal.reset()
      terminal.write(BRACKETED_PASTE)
    },
    fit: () => {
      if (element.offsetParent !== null) fitAddon.fit() // hidden: keep the old size
    },
    focus: () => terminal.focus(),
    setTheme: (theme) => {
      terminal.options.theme = theme
    },
    dispose: () => terminal.dispose(),
  }
}
