// Promise-based confirmation: `await requestConfirm(store, {title, text, danger})` resolves true on
// Confirm, false on Cancel, Escape or a click outside. <ConfirmHost/> (mounted once, by the
// palette host) shows the oldest pending request; later ones wait their turn.
import { atom, useAtomValue, useStore } from 'jotai'
import type { Store } from 'jotai'
import { useCallback, useEffect, useId, useRef, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import './ui-widgets.css'

export interface ConfirmRequest {
  /** Translated heading, usually the command title. */
  title: string
  /** Translated sentence saying what will happen. */
  text: string
  /** Dangerous operations get a red confirm button. */
  danger?: boolean
  /** Translated label of the confirm button; default "Confirm". */
  confirmLabel?: string
  /** What each row of a bulk run will do, listed under the text (the first BULK_LISTED of them). */
  items?: string[]
}

interface Pending extends ConfirmRequest {
  id: number
  resolve(accepted: boolean): void
}

const pendingAtom = atom<Pending[]>([])
let nextId = 1

export function requestConfirm(store: Store, request: ConfirmRequest): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const id = nextId++
    const settle = (accepted: boolean) => {
      store.set(pendingAtom, (list) => list.filter((p) => p.id !== id))
      resolve(accepted)
    }
    store.set(pendingAtom, (list) => [...list, { ...request, id, resolve: settle }])
  })
}

/** `requestConfirm` bound to the surrounding store. */
export function useConfirm(): (request: ConfirmRequest) => Promise<boolean> {
  const store = useStore()
  return useCallback((request: ConfirmRequest) => requestConfirm(store, request), [store])
}

export function ConfirmHost() {
  const pending = useAtomValue(pendingAtom)
  const current = pending[0]
  return current ? <ConfirmDialog key={current.id} request={current} /> : null
}

function ConfirmDialog({ request }: { request: Pending }) {
  const { t } = useTranslation()
  const titleId = useId()
  const textId = useId()
  const confirmRef = useRef<HTMLButtonElement>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    confirmRef.current?.focus()
    return () => previous?.focus()
  }, [])

  // Escape is caught in the capture phase so nothing underneath (the palette, xterm) sees it.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      event.stopPropagation()
      request.resolve(false)
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [request])

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key !== 'Tab') return
    // Two buttons: keep focus between them.
    event.preventDefault()
    const next = document.activeElement === confirmRef.current ? cancelRef.current : confirmRef.current
    next?.focus()
  }

  return (
    <div className="dialog-backdrop confirm-backdrop" onMouseDown={(e) => e.target === e.currentTarget && request.resolve(false)}>
      <div
        className={`dialog confirm-dialog${request.danger ? ' confirm-danger' : ''}`}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        onKeyDown={onKeyDown}
      >
        <div className="dialog-header" id={titleId}>
          {request.title}
        </div>
        <div className="dialog-body">
          <p className="confirm-text" id={textId}>
            {request.text}
          </p>
          {request.items && <ConfirmItems items={request.items} />}
        </div>
        <div className="dialog-footer">
          <button ref={cancelRef} type="button" className="btn" onClick={() => request.resolve(false)}>
            {t('confirm.cancel')}
          </button>
          <button
            ref={confirmRef}
            type="button"
            className={request.danger ? 'btn btn-danger' : 'btn btn-primary'}
            onClick={() => request.resolve(true)}
          >
            {request.confirmLabel ?? t('confirm.ok')}
          </button>
        </div>
      </div>
    </div>
  )
}

/** The rows a bulk confirmation is about: the first ten by name, then how many more. */
export function ConfirmItems({ items }: { items: readonly string[] }) {
  const { t } = useTranslation()
  const shown = items.slice(0, 10)
  return (
    <ul className="confirm-items">
      {shown.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
      {items.length > shown.length && <li className="muted">{t('confirm.more', { count: items.length - shown.length })}</li>}
    </ul>
  )
}
