// The xterm.js side of the terminal pane. Loaded with a dynamic import the first time the pane
// opens, so the login page and first screen do not ship xterm.
import { FitAddon } from '@xterm/addon-fit'
import { Terminal, type ITheme } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'

export interface TerminalView {
  write(text: string): void
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
    disableStdin: true, // a log, not a shell: nothing typed here goes anywhere
    cursorBlink: false,
    cursorStyle: 'bar',
    cursorInactiveStyle: 'none',
    convertEol: false,
    allowProposedApi: false,
  })
  const fitAddon = new FitAddon()
  terminal.loadAddon(fitAddon)
  terminal.attachCustomKeyEventHandler((event) => !options.passThrough(event))
  terminal.open(element)
  fitAddon.fit()
  // A log has no input position: hide the cursor (DECTCEM), again after every reset.
  const HIDE_CURSOR = '\x1b[?25l'
  terminal.write(HIDE_CURSOR)

  return {
    write: (text) => terminal.write(text),
    clear: () => {
      terminal.reset()
      terminal.write(HIDE_CURSOR)
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
