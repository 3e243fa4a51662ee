// The command palette (Ctrl+K / Cmd+K from anywhere) and the command keyboard shortcuts.
// Steps: list → arguments form (generated from the schema) → confirmation → run. Escape goes
// back one step; Escape on the list closes. The screen in view adds context (src/state/
// commandContext.ts): argument defaults, and selected table rows that a command taking that
// entity applies to, one confirmation for all. Mount once inside the router and the jotai Provider.
import { Command } from 'cmdk'
import { atom, useAtom, useAtomValue } from 'jotai'
import { memo, startTransition, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import type { i18n as I18n } from 'i18next'
import { useTranslation } from 'react-i18next'
import type { AnyCommand } from '../../../commands/define.ts'
import { describeArgs, listCommands, validateArgs, type FieldError } from '../../../commands/registry.ts'
import { bulkField, commandDefaultsAtom, tableSelectionAtom, withDefaults, type TableSelection } from '../../state/commandContext.ts'
import { historyAtom } from '../../state/history.ts'
import { ConfirmHost, ConfirmItems } from '../../ui/Confirm.tsx'
import { SchemaForm, initialValues, type FormValues } from '../../ui/SchemaForm.tsx'
import { ShortcutSheet } from '../help/ShortcutSheet.tsx'
import { bulkConfirmText, describeRun } from '../commands/runner.ts'
import { isEditable, isPaletteKey, matchStrokes, parseShortcut, shortcutLabels, strokeOf, type KeyStroke } from '../commands/shortcuts.ts'
import { useRunBulk, useRunCommand } from '../commands/useRunCommand.ts'
import { useApi } from '../useApi.ts'
import { buildSections, firstRows, type Entry, type Section } from './sections.ts'
import { paletteUsage, rememberRecent } from './recent.ts'
import { HistoryView } from './HistoryView.tsx'
import { paletteRequestAtom } from './request.ts'
import { ScriptView } from './ScriptView.tsx'
import './palette.css'

/** Open state, so a header button can open the palette too. */
export const paletteOpenAtom = atom(false)

/** A run over the selected rows: the argument they fill and their values. */
interface Bulk {
  field: string
  ids: string[]
}

type Step =
  | { kind: 'list' }
  | { kind: 'form'; command: AnyCommand; values: FormValues; errors: FieldError[]; bulk?: Bulk }
  | { kind: 'confirm'; command: AnyCommand; values: FormValues; text: string; hasForm: boolean; items?: string[]; bulk?: Bulk }
  | { kind: 'script'; text: string }
  | { kind: 'history' }

/** Rows an opening or a keystroke renders at once: more than the list shows; the rest follow in a background render. */
const FIRST_ROWS = 16

/** Runs `work` once the next frame has been produced; the returned function cancels it. */
function afterNextFrame(work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => (timer = setTimeout(work, 0)))
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}
const SEQUENCE_MS = 1200

export function PaletteHost() {
  const [open, setOpen] = useAtom(paletteOpenAtom)
  const run = useRunCommand()
  // Where focus was before the palette took it (a table row, the terminal): it goes back there.
  const returnFocus = useRef<HTMLElement | null>(null)
  const wasOpen = useRef(open)
  if (open && !wasOpen.current && document.activeElement instanceof HTMLElement) returnFocus.current = document.activeElement
  wasOpen.current = open

  useEffect(() => {
    if (open || !returnFocus.current) return
    const target = returnFocus.current
    returnFocus.current = null
    if (target.isConnected) target.focus({ preventScroll: true })
  }, [open])

  // Capture phase: works inside inputs, and before xterm or any screen handler sees the key.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isPaletteKey(event)) return
      event.preventDefault()
      event.stopPropagation()
      setOpen((was) => !was)
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [setOpen])

  useCommandShortcuts(!open, run)

  // The entries are made while the shell is idle, so the first opening does not wait for them.
  const { i18n } = useTranslation()
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') return
    const id = requestIdleCallback(() => paletteEntries(i18n))
    return () => cancelIdleCallback(id)
  }, [i18n, i18n.language])

  // A deep link, a history command or a re-run asks for a form, the history or a script (request.ts).
  const request = useAtomValue(paletteRequestAtom)
  useEffect(() => {
    if (request) setOpen(true)
  }, [request, setOpen])

  return (
    <>
      {open && <Palette onClose={() => setOpen(false)} />}
      <ConfirmHost />
      <ShortcutSheet />
    </>
  )
}

/** `g c` style sequences and modified keys declared on commands; off while typing or in the palette. */
function useCommandShortcuts(enabled: boolean, run: ReturnType<typeof useRunCommand>) {
  const bindings = useMemo(
    () =>
      listCommands()
        .filter((c) => c.shortcut && describeArgs(c).every((f) => !f.required || f.default !== undefined))
        .map((c) => ({ strokes: parseShortcut(c.shortcut!), value: c })),
    [],
  )
  useEffect(() => {
    if (!enabled) return
    let typed: KeyStroke[] = []
    let timer: ReturnType<typeof setTimeout> | undefined
    const reset = () => {
      typed = []
      clearTimeout(timer)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || ['Shift', 'Control', 'Meta', 'Alt'].includes(event.key)) return
      const stroke = strokeOf(event)
      if (!stroke.mod && !stroke.alt && isEditable(event.target)) return reset()
      if (document.querySelector('[aria-modal="true"]')) return reset()
      const { match, pending } = matchStrokes([...typed, stroke], bindings)
      if (match) {
        event.preventDefault()
        reset()
        void run(match, {}, { source: 'shortcut' })
      } else if (pending) {
        typed = [...typed, stroke]
        clearTimeout(timer)
        timer = setTimeout(reset, SEQUENCE_MS)
      } else reset()
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      reset()
    }
  }, [enabled, bindings, run])
}

function Palette({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const runBulk = useRunBulk()
  const [step, setStep] = useState<Step>({ kind: 'list' })
  const [search, setSearch] = useState('')
  const history = useAtomValue(historyAtom)
  // Read once per opening: the order must not shift under the operator while the palette is open.
  const [{ recent, usage }] = useState(() => paletteUsage(history))
  const defaults = useAtomValue(commandDefaultsAtom)
  const selection = useAtomValue(tableSelectionAtom)
  const dialogRef = useRef<HTMLDivElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)

  const entries = useMemo(() => paletteEntries(i18n), [i18n, i18n.language])

  const sections = useMemo(() => buildSections(entries, search, recent, usage), [entries, search, recent, usage])
  // An opening or a keystroke paints the input and the top of the list first; the rows below the
  // fold are rendered once that frame is out, as a transition that typing interrupts. (A deferred
  // value was rendered before the first frame, which then waited for every row.)
  const [fullFor, setFullFor] = useState<Section[] | null>(null)
  const shown = useMemo(() => (fullFor === sections ? sections : firstRows(sections, FIRST_ROWS)), [fullFor, sections])
  useEffect(() => {
    if (shown === sections) return
    return afterNextFrame(() => startTransition(() => setFullFor(sections)))
  }, [shown, sections])
  const translate = useCallback((k: string, v?: Record<string, string | number>) => t(k, v ?? {}), [t])

  const execute = useCallback(
    (command: AnyCommand, values: FormValues, confirmed: boolean, bulk?: Bulk) => {
      rememberRecent(command.id)
      onClose()
      if (!bulk) return void run(command, values, { confirmed, source: 'palette' })
      const target: TableSelection | null = selection
      void runBulk(command, bulkRows(bulk, values), { confirmed, source: 'palette' }).then((results) =>
        target?.onDone?.(results.filter((r) => r.result.ok).map((r) => r.key)),
      )
    },
    [onClose, run, runBulk, selection],
  )

  const proceed = useCallback(
    (command: AnyCommand, values: FormValues, hasForm: boolean, bulk?: Bulk) => {
      if (!(command.danger || command.confirm)) return execute(command, values, false, bulk)
      if (bulk) {
        const items = bulkRows(bulk, values).map((row) => {
          const checked = validateArgs(command, row.args)
          return describeRun(command, checked.ok ? checked.value : row.args, translate)
        })
        setStep({ kind: 'confirm', command, values, text: bulkConfirmText(command, bulk.ids.length, translate), items, hasForm, bulk })
        return
      }
      const checked = validateArgs(command, values)
      setStep({ kind: 'confirm', command, values, text: describeRun(command, checked.ok ? checked.value : values, translate), hasForm })
    },
    [execute, translate],
  )

  const choose = useCallback(
    (command: AnyCommand) => {
      const fields = describeArgs(command)
      const names = fields.map((f) => f.name)
      const values = withDefaults(initialValues(fields), names, defaults)
      const field = bulkField(names, selection)
      if (field && selection) {
        const bulk = { field, ids: selection.ids }
        // Nothing left to ask (kick): straight to the one confirmation listing every row.
        if (fields.every((f) => f.name === field)) return proceed(command, values, false, bulk)
        return setStep({ kind: 'form', command, values, errors: [], bulk })
      }
      if (fields.length > 0) setStep({ kind: 'form', command, values, errors: [] })
      else proceed(command, {}, false)
    },
    [proceed, defaults, selection],
  )

  const submitForm = useCallback(() => {
    if (step.kind !== 'form') return
    const { command, values, bulk } = step
    if (bulk) {
      // Every row must be valid; the rows differ only in the selected field, so the first row's
      // errors (other than that field) are the form's.
      const checked = validateArgs(command, bulkRows(bulk, values)[0]?.args ?? values)
      if (!checked.ok) return setStep({ ...step, errors: checked.errors })
      return proceed(command, values, true, bulk)
    }
    const checked = validateArgs(command, values)
    if (!checked.ok) setStep({ ...step, errors: checked.errors })
    else proceed(command, values, true)
  }, [step, proceed])

  // A command filled in from elsewhere (a deep link, a history entry): its form, or its confirmation
  // when it takes no arguments, so nothing runs before the operator presses Enter.
  const prefill = useCallback(
    (command: AnyCommand, values: FormValues) => {
      const fields = describeArgs(command)
      if (fields.length > 0) setStep({ kind: 'form', command, values: { ...initialValues(fields), ...values }, errors: [] })
      else setStep({ kind: 'confirm', command, values: {}, text: describeRun(command, {}, translate), hasForm: false })
    },
    [translate],
  )

  // Enter on a history entry is choosing that command again, as the operator did: a command without
  // arguments runs at once unless it is dangerous (a navigation needs no confirmation).
  const reopen = useCallback(
    (command: AnyCommand, values: FormValues) => (describeArgs(command).length > 0 ? prefill(command, values) : proceed(command, {}, false)),
    [prefill, proceed],
  )

  const [request, setRequest] = useAtom(paletteRequestAtom)
  useEffect(() => {
    if (!request) return
    setRequest(null)
    if (request.kind === 'form') prefill(request.command, request.values)
    else setStep(request.kind === 'script' ? { kind: 'script', text: request.text } : { kind: 'history' })
  }, [request, setRequest, prefill])

  const back = useCallback(() => {
    if (step.kind === 'list') return onClose()
    if (step.kind === 'confirm' && step.hasForm)
      return setStep({ kind: 'form', command: step.command, values: step.values, errors: [], bulk: step.bulk })
    setStep({ kind: 'list' })
  }, [step, onClose])

  useEffect(() => {
    if (step.kind === 'list') inputRef.current?.focus()
  }, [step.kind])

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault()
      event.stopPropagation()
      back()
    } else if (event.key === 'Tab') trapTab(event, dialogRef.current)
  }

  const title =
    step.kind === 'list'
      ? t('palette.label')
      : step.kind === 'script'
        ? t('scriptView.title')
        : step.kind === 'history'
          ? t('history.title')
          : t(step.command.title)

  return (
    <div className="dialog-backdrop palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={dialogRef} className="dialog palette" role="dialog" aria-modal="true" aria-label={title} onKeyDown={onKeyDown}>
        {step.kind === 'list' && (
          <Command label={t('palette.label')} shouldFilter={false} loop vimBindings={false} className="palette-command">
            <Command.Input
              ref={inputRef}
              value={search}
              onValueChange={setSearch}
              placeholder={t('palette.placeholder')}
              className="palette-input"
              autoFocus
              onPaste={(event) => {
                // Several lines are a script: the script view plans them before anything runs.
                const text = event.clipboardData.getData('text/plain')
                if (!/[\r\n]/.test(text.trim())) return
                event.preventDefault()
                setStep({ kind: 'script', text: text.replace(/\r\n?/g, '\n') })
              }}
            />
            {selection && (
              <div className="palette-selection muted" role="note">
                {t('palette.selectionNote', { count: selection.ids.length, entity: t(selection.entity) })}
              </div>
            )}
            <Command.List className="palette-list" label={t('palette.label')}>
              <Command.Empty className="palette-empty">{t('palette.empty')}</Command.Empty>
              {shown.map((section) => (
                <Command.Group key={section.key} heading={t(section.heading)} value={section.key} className="palette-group">
                  {section.entries.map((entry) => (
                    <PaletteRow
                      key={`${section.key}:${entry.id}`}
                      value={`${section.key}:${entry.id}`}
                      entry={entry}
                      onSelect={choose}
                      bulkCount={bulkField(entry.fieldNames, selection) ? selection?.ids.length : undefined}
                    />
                  ))}
                </Command.Group>
              ))}
            </Command.List>
            <PaletteFooter hint={t('palette.hintList')} />
          </Command>
        )}

        {step.kind === 'form' && (
          <div className="palette-step">
            <StepHeader command={step.command} />
            <div className="palette-step-body">
              {step.bulk && (
                <BulkNote
                  bulk={step.bulk}
                  entity={selection?.entity ?? ''}
                  onSingle={() => setStep({ ...step, bulk: undefined, values: { ...step.values, [step.bulk!.field]: '' } })}
                />
              )}
              <SchemaForm
                key={step.bulk ? 'bulk' : 'single'}
                label={t(step.command.title)}
                fields={describeArgs(step.command).filter((f) => f.name !== step.bulk?.field)}
                values={step.values}
                errors={step.errors.filter((e) => e.field !== step.bulk?.field)}
                autoFocus
                onChange={(name, value) =>
                  setStep((s) =>
                    s.kind === 'form'
                      ? { ...s, values: { ...s.values, [name]: value }, errors: s.errors.filter((e) => e.field !== name) }
                      : s,
                  )
                }
                onSubmit={submitForm}
                completable={Object.keys(step.command.complete ?? {})}
                complete={(field, query, signal, values) => {
                  const completer = step.command.complete?.[field]
                  return completer ? completer(api, query, signal, values) : Promise.resolve([])
                }}
              >
                <div className="palette-actions">
                  <button type="button" className="btn" onClick={back}>
                    {t('palette.back')}
                  </button>
                  <button type="submit" className={step.command.danger ? 'btn btn-danger' : 'btn btn-primary'}>
                    {t('palette.run')}
                  </button>
                </div>
              </SchemaForm>
            </div>
            <PaletteFooter hint={t('palette.hintForm')} />
          </div>
        )}

        {step.kind === 'script' && <ScriptView text={step.text} onBack={back} />}

        {step.kind === 'history' && <HistoryView onRerun={reopen} onBack={back} />}

        {step.kind === 'confirm' && (
          <ConfirmStep
            command={step.command}
            text={step.text}
            items={step.items}
            onConfirm={() => execute(step.command, step.values, true, step.bulk)}
            onCancel={back}
          />
        )}
      </div>
    </div>
  )
}

let entriesCache: { i18n: I18n; language: string; entries: Entry[] } | undefined

/**
 * Every command with its titles in the UI language first, then English and Chinese, and its argument
 * names: made once per language, not on every opening (reading each command's argument schema was
 * most of what opening the palette cost).
 */
function paletteEntries(i18n: I18n): Entry[] {
  if (entriesCache?.i18n === i18n && entriesCache.language === i18n.language) return entriesCache.entries
  const t = i18n.getFixedT(i18n.language)
  const en = i18n.getFixedT('en')
  const zh = i18n.getFixedT('zh')
  const entries = listCommands().map((command) => ({
    id: command.id,
    titles: [...new Set([t(command.title), en(command.title), zh(command.title)])],
    aliases: command.aliases,
    command,
    fieldNames: describeArgs(command).map((f) => f.name),
  }))
  entriesCache = { i18n, language: i18n.language, entries }
  return entries
}

/** The rows of a bulk run: the form's values with the selected field set to each row's id. */
function bulkRows(bulk: Bulk, values: FormValues): { key: string; args: Record<string, string> }[] {
  return bulk.ids.map((id) => ({ key: id, args: { ...values, [bulk.field]: id } }))
}

/** Memoized: a keystroke re-renders only the rows whose place or badge changed. */
const PaletteRow = memo(function PaletteRow(props: { entry: Entry; value: string; onSelect(command: AnyCommand): void; bulkCount?: number }) {
  const { entry, value, onSelect, bulkCount } = props
  const { t } = useTranslation()
  const { command } = entry
  return (
    <Command.Item value={value} onSelect={() => onSelect(command)} className="palette-item">
      <span className="palette-item-title">{t(command.title)}</span>
      {command.danger && (
        <span className="tag tag-danger palette-item-tag" title={t('palette.dangerous')} aria-label={t('palette.dangerous')}>
          !
        </span>
      )}
      {bulkCount !== undefined && <span className="tag palette-item-tag palette-item-bulk">{t('palette.bulkBadge', { count: bulkCount })}</span>}
      <span className="palette-item-id mono muted">{command.id}</span>
      {command.shortcut && <Shortcut shortcut={command.shortcut} />}
    </Command.Item>
  )
})

export function Shortcut({ shortcut }: { shortcut: string }) {
  return (
    <span className="palette-shortcut" aria-label={shortcut}>
      {shortcutLabels(shortcut).map((stroke, i) => (
        <span key={i} className="palette-stroke">
          {stroke.map((key) => (
            <kbd key={key} className="kbd">
              {key}
            </kbd>
          ))}
        </span>
      ))}
    </span>
  )
}

function StepHeader({ command }: { command: AnyCommand }) {
  const { t } = useTranslation()
  return (
    <div className="palette-step-header">
      <span className={command.danger ? 'palette-step-title palette-danger' : 'palette-step-title'}>{t(command.title)}</span>
      <span className="mono muted">{command.id}</span>
    </div>
  )
}

/** The form of a bulk run says which rows it applies to, and can go back to one row. */
function BulkNote({ bulk, entity, onSingle }: { bulk: Bulk; entity: string; onSingle(): void }) {
  const { t } = useTranslation()
  const shown = bulk.ids.slice(0, 5).join(', ')
  const more = bulk.ids.length > 5 ? ` ${t('confirm.more', { count: bulk.ids.length - 5 })}` : ''
  return (
    <div className="palette-bulk" role="note">
      <span>
        {t('common.labelled', { label: t('palette.bulkApplies', { count: bulk.ids.length, entity: t(entity) }) })} <span className="mono">{shown}</span>
        {more}
      </span>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onSingle}>
        {t('palette.bulkSingle')}
      </button>
    </div>
  )
}

function ConfirmStep(props: { command: AnyCommand; text: string; items?: string[]; onConfirm(): void; onCancel(): void }) {
  const { command, text, items, onConfirm, onCancel } = props
  const { t } = useTranslation()
  const confirmRef = useRef<HTMLButtonElement>(null)
  useEffect(() => confirmRef.current?.focus(), [])
  const onKeyDown = (event: ReactKeyboardEvent) => {
    // Enter confirms wherever focus is inside this step, except on the Cancel button itself.
    if (event.key !== 'Enter' || (event.target instanceof HTMLButtonElement && event.target !== confirmRef.current)) return
    event.preventDefault()
    onConfirm()
  }
  return (
    <div className="palette-step" onKeyDown={onKeyDown}>
      <StepHeader command={command} />
      <div className="palette-step-body">
        <p className={command.danger ? 'palette-confirm-text palette-danger' : 'palette-confirm-text'} role="alert">
          {text}
        </p>
        {items && <ConfirmItems items={items} />}
        <div className="palette-actions">
          <button type="button" className="btn" onClick={onCancel}>
            {t('confirm.cancel')}
          </button>
          <button ref={confirmRef} type="button" className={command.danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={onConfirm}>
            {t('confirm.ok')}
          </button>
        </div>
      </div>
      <PaletteFooter hint={t('palette.hintConfirm')} />
    </div>
  )
}

function PaletteFooter({ hint }: { hint: string }) {
  return <div className="palette-footer muted">{hint}</div>
}

/** Keeps Tab inside the dialog. */
function trapTab(event: ReactKeyboardEvent, root: HTMLElement | null) {
  if (!root) return
  const focusable = [...root.querySelectorAll<HTMLElement>('input, select, textarea, button, [tabindex]:not([tabindex="-1"])')].filter(
    (el) => !el.hasAttribute('disabled') && el.offsetParent !== null,
  )
  if (focusable.length === 0) return
  const first = focusable[0]
  const last = focusable[focusable.length - 1]
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault()
    first.focus()
  }
}
