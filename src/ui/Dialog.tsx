// A modal dialog: the dimmed backdrop (a click on it closes, unless `keepOpen`), the box named by its
// heading, Escape to close, and focus given back to where it was when it closes.
import { useEffect, useId, type ReactNode } from 'react'

export interface DialogProps {
  title: ReactNode
  className?: string
  testId?: string
  /** A click outside does not close it (a secret that must be read first). */
  keepOpen?: boolean
  onClose(): void
  children: ReactNode
}

export function Dialog({ title, className, testId, keepOpen, onClose, children }: DialogProps) {
  const titleId = useId()
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    return () => previous?.focus({ preventScroll: true })
  }, [])
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => !keepOpen && e.target === e.currentTarget && onClose()}>
      <div
        className={`dialog${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation()
            onClose()
          }
        }}
      >
        <div className="dialog-header" id={titleId}>
          {title}
        </div>
        {children}
      </div>
    </div>
  )
}
