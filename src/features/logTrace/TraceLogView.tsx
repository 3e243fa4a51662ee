// The xterm view a trace's log is drawn in: lines appended as they arrive, or all redrawn (a new
// search). xterm loads on first use, so the list screen does not ship it; lines arriving before it
// is ready are kept and drawn once it is.
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react'
import { readTheme } from '../../app/terminal/TerminalDock.tsx'
import { isPaletteKey, isTerminalToggleKey } from '../../app/commands/shortcuts.ts'
import type { TerminalView } from '../../app/terminal/xtermView.ts'
import { renderTraceLine } from './traceLineView.ts'

export interface TraceLogViewHandle {
  append(lines: readonly string[], query: string): void
  replace(lines: readonly string[], query: string): void
}

const SCROLLBACK = 100_000

export const TraceLogView = forwardRef<TraceLogViewHandle, { label: string }>(function TraceLogView({ label }, ref) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<TerminalView | null>(null)
  // Text for a view not loaded yet.
  const pending = useRef('')

  useImperativeHandle(ref, () => ({
    append(lines, query) {
      const text = lines.map((line) => renderTraceLine(line, query)).join('')
      if (view.current) view.current.write(text)
      else pending.current += text
    },
    replace(lines, query) {
      const text = lines.map((line) => renderTraceLine(line, query)).join('')
      if (view.current) {
        view.current.clear()
        view.current.write(text)
      } else pending.current = text
    },
  }))

  useEffect(() => {
    let cleanup = () => {}
    let disposed = false
    void import('../../app/terminal/xtermView.ts').then(({ createTerminalView }) => {
      if (disposed || !host.current) return
      const { theme, fontFamily } = readTheme()
      const created = createTerminalView(host.current, { theme, fontFamily, scrollback: SCROLLBACK, passThrough: (event) => isPaletteKey(event) || isTerminalToggleKey(event) })
      view.current = created
      created.write(pending.current)
      pending.current = ''
      const themes = new MutationObserver(() => created.setTheme(readTheme().theme))
      themes.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] })
      let frame = 0
      const resize = new ResizeObserver(() => {
        cancelAnimationFrame(frame)
        frame = requestAnimationFrame(() => created.fit())
      })
      resize.observe(host.current)
      cleanup = () => {
        cancelAnimationFrame(frame)
        themes.disconnect()
        resize.disconnect()
        created.dispose()
        view.current = null
      }
    })
    return () => {
      disposed = true
      cleanup()
    }
  }, [])

  return <div ref={host} className="log-trace-view" role="log" aria-label={label} data-testid="trace-log-view" />
})
