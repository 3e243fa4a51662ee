// The terminal pane docked under the main area: a thin bar (title, last entry, toggle) and, when
// open, an xterm showing every terminal log entry above a command prompt (prompt.ts). Ctrl+`
// toggles it; ` alone (outside inputs) opens and focuses it. xterm loads on first open and then
// stays alive (hidden, still receiving lines) across navigation until the dock unmounts.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { ITheme } from '@xterm/xterm'
import { liveStreams } from '../../state/liveStreams.ts'
import { terminalLog, type TerminalEntry } from '../../state/terminalLog.ts'
import { isEditable, isPaletteKey, isTerminalToggleKey } from '../commands/shortcuts.ts'
import { formatEntry, summarizeEntry, type FormatLabels } from './format.ts'
import { PromptSession } from './prompt.ts'
import { usePromptHost } from './usePromptHost.ts'
import type { TerminalView } from './xtermView.ts'
import './terminal.css'

const OPEN_KEY = 'terminal.open'
const HEIGHT_KEY = 'terminal.height'
const MIN_HEIGHT = 120
const DEFAULT_HEIGHT = 260
/** Open with nothing logged yet: room for one line saying what will appear, not 260 px of blank. */
const EMPTY_HEIGHT = 52

function stored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null
  } catch {
    return null
  }
}
function store(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value)
  } catch {
    // blocked storage: the dock forgets its state on reload
  }
}

function maxHeight(): number {
  return Math.max(MIN_HEIGHT, Math.round(window.innerHeight * 0.7))
}

/** xterm colours from the theme's CSS variables, so the pane follows light and dark. */
export function readTheme(): { theme: ITheme; fontFamily: string } {
  const css = getComputedStyle(document.documentElement)
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
  const dark = document.documentElement.dataset.theme === 'dark'
  const text = v('--text', dark ? '#e4e7eb' : '#1b1f24')
  const muted = v('--text-muted', '#8a919c')
  return {
    fontFamily: v('--font-mono', 'monospace'),
    theme: {
      background: v('--bg-sunken', dark ? '#0b0d10' : '#f0f2f5'),
      foreground: text,
      cursor: text,
      cursorAccent: v('--bg-sunken', '#000'),
      selectionBackground: dark ? 'rgba(255,255,255,0.18)' : 'rgba(0,0,0,0.14)',
      black: text,
      brightBlack: muted,
      red: v('--danger', '#d93842'),
      brightRed: v('--danger', '#d93842'),
      green: v('--success', '#00a36a'),
      brightGreen: v('--success', '#00a36a'),
      yellow: v('--warning', '#c77d05'),
      brightYellow: v('--warning', '#c77d05'),
      white: text,
      brightWhite: text,
      blue: v('--primary', '#2f6fde'),
      cyan: dark ? '#4fc7d9' : '#0e7c8c',
      magenta: dark ? '#d08ae6' : '#9b3fb8',
    },
  }
}

export function TerminalDock() {
  const { t } = useTranslation()
  const [open, setOpen] = useState(() => stored(OPEN_KEY) === 'true')
  const [height, setHeight] = useState(() => Number(stored(HEIGHT_KEY)) || DEFAULT_HEIGHT)
  // Once opened, xterm stays mounted (hidden when closed) so nothing is rebuilt on reopen.
  const [loaded, setLoaded] = useState(open)
  const last = useLastEntry()
  const panelRef = useRef<HTMLDivElement>(null)
  const viewRef = useRef<TerminalView | null>(null)
  const focusWhenReady = useRef(false)

  const labels: FormatLabels = { cancelled: t('terminal.cancelled'), invalid: t('terminal.invalid'), tooLarge: t('testClient.payloadTooLarge') }
  const labelsRef = useRef(labels)
  labelsRef.current = labels

  const openRef = useRef(open)
  const toggle = useCallback((focus: boolean) => {
    const next = !openRef.current
    openRef.current = next
    store(OPEN_KEY, String(next))
    setOpen(next)
    if (next) setLoaded(true)
    else if (panelRef.current?.contains(document.activeElement)) (document.activeElement as HTMLElement).blur()
    // A stream writes into the pane: closing it stops them (rule.tap deletes its rule).
    if (!next) liveStreams.stopAll()
    if (next && focus) {
      // On the very first open xterm is still loading; XtermPane focuses it once ready.
      focusWhenReady.current = true
      requestAnimationFrame(() => {
        if (viewRef.current) {
          focusWhenReady.current = false
          viewRef.current.focus()
        }
      })
    }
  }, [])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTerminalToggleKey(event)) {
        event.preventDefault()
        event.stopPropagation()
        return toggle(true)
      }
      // ` alone opens the prompt from anywhere that is not itself an input (nor the pane, nor a dialog).
      if (event.key !== '`' || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return
      if (isEditable(event.target) || panelRef.current?.contains(event.target as Node) || document.querySelector('[aria-modal="true"]')) return
      event.preventDefault()
      event.stopPropagation()
      if (!openRef.current) return toggle(true)
      viewRef.current?.focus()
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [toggle])

  const streaming = useStreaming(() => {
    if (!openRef.current) toggle(false)
  })

  const empty = last === undefined
  return (
    <section className={`terminal-dock${open ? ' is-open' : ''}`} aria-label={t('terminal.title')}>
      {open && !empty && <ResizeHandle height={height} onHeight={setHeight} />}
      <div className="terminal-bar">
        <button
          type="button"
          className="terminal-bar-toggle"
          aria-expanded={open}
          aria-controls="terminal-panel"
          title={t('terminal.toggleTitle')}
          onClick={() => toggle(false)}
        >
          <span className="terminal-chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <span className="terminal-bar-title">{t('terminal.title')}</span>
          <kbd className="kbd">Ctrl</kbd>
          <kbd className="kbd">`</kbd>
        </button>
        <span className={`terminal-bar-last mono status-${last?.status ?? 'none'}`} aria-live="off">
          {last ? summarizeEntry(last, labels) : t('terminal.empty')}
        </span>
        {streaming > 0 && (
          <button type="button" className="btn btn-ghost btn-sm" title={t('ruleTap.stopTitle')} onClick={() => liveStreams.stopAll()}>
            {t('ruleTap.stop')}
          </button>
        )}
        {open && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => terminalLog.clear()}>
            {t('terminal.clear')}
          </button>
        )}
      </div>
      <div id="terminal-panel" ref={panelRef} className="terminal-panel" style={{ height: empty ? EMPTY_HEIGHT : height }} hidden={!open}>
        {loaded && <XtermPane viewRef={viewRef} labelsRef={labelsRef} focusWhenReady={focusWhenReady} visible={open} />}
        {empty && <p className="terminal-empty muted">{t('terminal.emptyHint')}</p>}
      </div>
    </section>
  )
}

/** How many streams run into the pane; `onStart` is told when one starts (the pane opens for it). */
function useStreaming(onStart: () => void): number {
  const [count, setCount] = useState(() => liveStreams.running().length)
  const onStartRef = useRef(onStart)
  onStartRef.current = onStart
  useEffect(() => {
    let known = liveStreams.running().length
    return liveStreams.subscribe(() => {
      const now = liveStreams.running().length
      if (now > known) onStartRef.current()
      known = now
      setCount(now)
    })
  }, [])
  return count
}

/** The newest log entry for the bar, updated at most once per frame however fast entries come. */
function useLastEntry(): TerminalEntry | undefined {
  const [last, setLast] = useState(terminalLog.last)
  useEffect(() => {
    let frame = 0
    const unsubscribe = terminalLog.subscribe(() => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        setLast(terminalLog.last())
      })
    })
    setLast(terminalLog.last())
    return () => {
      unsubscribe()
      cancelAnimationFrame(frame)
    }
  }, [])
  return last
}

interface XtermPaneProps {
  viewRef: { current: TerminalView | null }
  labelsRef: { current: FormatLabels }
  focusWhenReady: { current: boolean }
  visible: boolean
}

function XtermPane({ viewRef, labelsRef, focusWhenReady, visible }: XtermPaneProps) {
  const { t } = useTranslation()
  const hostRef = useRef<HTMLDivElement>(null)
  const [ready, setReady] = useState(false)
  const promptHost = usePromptHost()

  useEffect(() => {
    let disposed = false
    let cleanup = () => {}
    void import('./xtermView.ts').then(({ createTerminalView }) => {
      if (disposed || !hostRef.current) return
      const { theme, fontFamily } = readTheme()
      const view = createTerminalView(hostRef.current, {
        theme,
        fontFamily,
        scrollback: terminalLog.capacity,
        passThrough: (event) => isPaletteKey(event) || isTerminalToggleKey(event),
      })
      viewRef.current = view
      setReady(true)
      if (focusWhenReady.current) {
        focusWhenReady.current = false
        view.focus()
      }

      // Everything logged so far, then new entries batched into one write per animation frame,
      // printed above the prompt; what the prompt prints waits for the entries logged before it.
      const labels = () => labelsRef.current
      view.write(terminalLog.entries().map((e) => formatEntry(e, labels())).join(''))
      let pending: string[] = []
      let frame = 0
      const flush = () => {
        cancelAnimationFrame(frame)
        frame = 0
        const text = pending.join('')
        pending = []
        if (text) prompt.print(text)
      }
      const prompt = new PromptSession(
        promptHost({
          write: (text) => view.write(text),
          columns: () => view.columns(),
          print: (text) => {
            flush()
            prompt.print(text)
          },
        }),
      )
      prompt.start()
      const stopInput = view.onData((data) => prompt.input(data))
      const unsubscribe = terminalLog.subscribe((entry) => {
        if (entry === null) {
          pending = []
          view.clear()
          prompt.screenCleared()
          return
        }
        pending.push(formatEntry(entry, labels()))
        // A hidden tab gets no frames: keep only what the scrollback could show anyway.
        if (pending.length > terminalLog.capacity) pending = pending.slice(-terminalLog.capacity)
        if (!frame) frame = requestAnimationFrame(flush)
      })

      const observer = new MutationObserver(() => view.setTheme(readTheme().theme))
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] })
      let fitFrame = 0
      const resize = new ResizeObserver(() => {
        cancelAnimationFrame(fitFrame)
        fitFrame = requestAnimationFrame(() => view.fit())
      })
      resize.observe(hostRef.current)

      cleanup = () => {
        stopInput()
        unsubscribe()
        cancelAnimationFrame(frame)
        cancelAnimationFrame(fitFrame)
        observer.disconnect()
        resize.disconnect()
        view.dispose()
        viewRef.current = null
      }
    })
    return () => {
      disposed = true
      cleanup()
    }
  }, [viewRef, labelsRef, focusWhenReady, promptHost])

  useEffect(() => {
    if (visible && ready) requestAnimationFrame(() => viewRef.current?.fit())
  }, [visible, ready, viewRef])

  return (
    <div className="terminal-xterm" ref={hostRef}>
      {!ready && <div className="terminal-loading muted">{t('terminal.loading')}</div>}
    </div>
  )
}

function ResizeHandle({ height, onHeight }: { height: number; onHeight(height: number): void }) {
  const { t } = useTranslation()
  const clamp = (h: number) => Math.min(maxHeight(), Math.max(MIN_HEIGHT, Math.round(h)))
  const commit = (h: number) => {
    const next = clamp(h)
    onHeight(next)
    store(HEIGHT_KEY, String(next))
  }

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    event.preventDefault()
    const startY = event.clientY
    const startHeight = height
    const target = event.currentTarget
    target.setPointerCapture(event.pointerId)
    const move = (e: PointerEvent) => onHeight(clamp(startHeight + (startY - e.clientY)))
    const up = (e: PointerEvent) => {
      commit(startHeight + (startY - e.clientY))
      target.removeEventListener('pointermove', move)
      target.removeEventListener('pointerup', up)
      target.removeEventListener('pointercancel', up)
    }
    target.addEventListener('pointermove', move)
    target.addEventListener('pointerup', up)
    target.addEventListener('pointercancel', up)
  }

  const onKeyDown = (event: ReactKeyboardEvent) => {
    const step = event.shiftKey ? 80 : 24
    if (event.key === 'ArrowUp') commit(height + step)
    else if (event.key === 'ArrowDown') commit(height - step)
    else return
    event.preventDefault()
  }

  return (
    <div
      className="terminal-resize"
      role="separator"
      aria-orientation="horizontal"
      aria-label={t('terminal.resize')}
      aria-valuenow={height}
      aria-valuemin={MIN_HEIGHT}
      aria-valuemax={maxHeight()}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  )
}
