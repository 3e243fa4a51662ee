// A form generated from a command's argument schema (commands/args.ts describeArgs): text inputs,
// number inputs, switches for booleans, pick lists for enums, an amount and a unit for durations
// and sizes, a time field that shows what 'now' or '+1h' resolves to, a JSON text area, rows of
// keys and values, and a completion list for fields that have a completer. Values stay strings;
// validateArgs coerces them.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import {
  DURATION_UNITS,
  SIZE_UNITS,
  parseKeyValues,
  resolveDateInput,
  splitDuration,
  splitSize,
  type FieldDescriptor,
  type FieldError,
} from '../../commands/args.ts'
import './ui-widgets.css'

export type FormValues = Record<string, string>
/** Suggestions for a field; `values` are the form's other values (a ban's `as` picks what `who` lists). */
export type CompleteField = (field: string, query: string, signal: AbortSignal, values: FormValues) => Promise<string[]>

export interface SchemaFormProps {
  fields: FieldDescriptor[]
  values: FormValues
  onChange(name: string, value: string): void
  onSubmit(): void
  errors?: FieldError[]
  /** Suggestions for the named fields. */
  complete?: CompleteField
  completable?: readonly string[]
  autoFocus?: boolean
  children?: ReactNode
  /** Accessible name of the form. */
  label?: string
  /**
   * 'command' (the palette): each field shows its argument name, as scripts write it, and whether it
   * may be left out. 'settings' (a screen filled with the current settings): labels, units and help
   * only, as a hand-made form, since every field holds a value.
   */
  variant?: 'command' | 'settings'
}

/**
 * Starting values: defaults as strings, booleans off unless their default says on, and empty
 * (keep the current setting) for an update command's arguments.
 */
export function initialValues(fields: FieldDescriptor[]): FormValues {
  const values: FormValues = {}
  for (const field of fields) {
    if (field.default !== undefined) values[field.name] = typeof field.default === 'string' ? field.default : JSON.stringify(field.default)
    else values[field.name] = field.kind === 'boolean' && !field.keepsCurrent ? 'false' : ''
  }
  return values
}

const DEBOUNCE_MS = 150

export function SchemaForm(props: SchemaFormProps) {
  const { fields, values, onChange, onSubmit, errors = [], complete, completable = [], autoFocus, children, label, variant = 'command' } = props
  const formRef = useRef<HTMLFormElement>(null)

  useEffect(() => {
    if (!autoFocus) return
    formRef.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus()
  }, [autoFocus])

  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    onSubmit()
  }

  return (
    <form ref={formRef} className="schema-form" onSubmit={submit} noValidate aria-label={label}>
      <SchemaFields
        fields={fields}
        values={values}
        onChange={onChange}
        errors={errors}
        onSubmit={() => formRef.current?.requestSubmit()}
        complete={complete}
        completable={completable}
        variant={variant}
      />
      {errors
        .filter((e) => !fields.some((f) => f.name === e.field))
        .map((e) => (
          <FormLevelError key={`${e.field}:${e.key}`} error={e} />
        ))}
      {children}
    </form>
  )
}

export interface SchemaFieldsProps {
  fields: FieldDescriptor[]
  values: FormValues
  onChange(name: string, value: string): void
  errors?: FieldError[]
  /** Submits the form the fields sit in (Enter in a select or a switch). */
  onSubmit(): void
  complete?: CompleteField
  completable?: readonly string[]
  variant?: 'command' | 'settings'
}

/** The fields alone: SchemaForm's body, and one section of a longer form (a data-integration form's connection, TLS, advanced). */
export function SchemaFields({ fields, values, onChange, errors = [], onSubmit, complete, completable = [], variant = 'settings' }: SchemaFieldsProps) {
  const idBase = useId()
  return (
    <>
      {fields.map((field) => (
        <Field
          key={field.name}
          id={`${idBase}-${field.name}`}
          field={field}
          value={values[field.name] ?? ''}
          error={errors.find((e) => e.field === field.name)}
          onChange={(value) => onChange(field.name, value)}
          onSubmit={onSubmit}
          complete={complete && completable.includes(field.name) ? complete : undefined}
          values={values}
          variant={variant}
        />
      ))}
    </>
  )
}

function FormLevelError({ error }: { error: FieldError }) {
  const { t } = useTranslation()
  return (
    <p className="field-error" role="alert">
      {t(error.key, error.values ?? {})}
    </p>
  )
}

interface FieldProps {
  id: string
  field: FieldDescriptor
  value: string
  error?: FieldError
  onChange(value: string): void
  onSubmit(): void
  complete?: CompleteField
  values: FormValues
  variant: 'command' | 'settings'
}

function Field({ id, field, value, error, onChange, onSubmit, complete, values, variant }: FieldProps) {
  const { t } = useTranslation()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const label = t(field.label, { defaultValue: field.name })
  const keptHint = variant === 'settings' && field.keepsCurrent && value === '' ? t('form.keepsCurrentHint') : ''
  const ownHint = hintFor(field, (key, values) => t(key, values ?? {}))
  // Two sentences: the field's hint (written without a full stop) ends before the kept one starts.
  const hint = ownHint && keptHint && !/[.。!?！？]$/.test(ownHint) ? t('form.hintThenKept', { hint: ownHint, kept: keptHint }) : [ownHint, keptHint].filter(Boolean).join(' ')
  const describedBy = [error ? errorId : '', field.unit ? `${id}-unit` : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy }

  // Enter in a control that does not submit on its own (select, switch) still runs the form.
  const enterSubmits = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault()
      onSubmit()
    }
  }

  let control: ReactNode
  switch (field.kind) {
    case 'boolean': {
      // A switch cannot say 'leave as it is': in the palette an update's flag is a choice of three.
      if (field.keepsCurrent && variant === 'command') {
        control = (
          <select {...common} className="select" value={value} onChange={(e) => onChange(e.target.value)} onKeyDown={enterSubmits}>
            <option value="">{t('form.keepCurrent')}</option>
            <option value="true">{t('form.on')}</option>
            <option value="false">{t('form.off')}</option>
          </select>
        )
        break
      }
      const on = value === 'true'
      control = (
        <button
          {...common}
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby={`${id}-label`}
          className="switch"
          onClick={() => onChange(on ? 'false' : 'true')}
          onKeyDown={enterSubmits}
        />
      )
      break
    }
    case 'enum':
      control = (
        <select {...common} className="select" value={value} onChange={(e) => onChange(e.target.value)} onKeyDown={enterSubmits}>
          {(!field.required || value === '') && <option value="">{field.required ? t('form.choose') : field.keepsCurrent ? t('form.keepCurrent') : '—'}</option>}
          {field.options?.map((option) => (
            <option key={String(option)} value={String(option)}>
              {t(`form.option.${field.name}.${String(option)}`, { defaultValue: String(option) })}
            </option>
          ))}
        </select>
      )
      break
    case 'json':
      control = (
        <textarea
          {...common}
          className="input mono"
          value={value}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              onSubmit()
            }
          }}
        />
      )
      break
    case 'duration':
    case 'size':
      control = <AmountUnitInput id={id} common={common} field={field} value={value} onChange={onChange} label={label} />
      break
    case 'date':
      control = <DateInput common={common} value={value} onChange={onChange} />
      break
    case 'keyValues':
      control = <KeyValueRows id={id} value={value} onChange={onChange} label={label} />
      break
    case 'rows':
      // An empty list is a value here ([]): removing every row clears the setting.
      control = <KeyValueRows id={id} value={value} onChange={onChange} label={label} columns={field.columns} empty="[]" />
      break
    default: {
      const input = complete ? (
        <CompletionInput id={id} common={common} name={field.name} value={value} onChange={onChange} complete={complete} values={values} />
      ) : (
        <input
          {...common}
          className="input"
          type={field.secret ? 'password' : 'text'}
          inputMode={field.kind === 'number' ? 'decimal' : undefined}
          autoComplete={field.secret ? 'new-password' : 'off'}
          spellCheck={false}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )
      control = field.unit ? (
        <div className="input-with-unit">
          {input}
          <span className="input-unit muted" id={`${id}-unit`}>
            {t(field.unit)}
          </span>
        </div>
      ) : (
        input
      )
    }
  }

  return (
    <div className={`field schema-field schema-field-${field.kind}`}>
      <label className="field-label" htmlFor={id} id={`${id}-label`}>
        {label}
        {variant === 'command' && label !== field.name && <span className="muted mono schema-field-name">{field.name}</span>}
        {variant === 'command' && !field.required && (
          <span className="muted schema-field-optional">{t(field.keepsCurrent ? 'form.keepsCurrentMark' : 'form.optional')}</span>
        )}
      </label>
      {control}
      {hint && (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={errorId}>
          {t(error.key, error.values ?? {})}
        </span>
      )}
    </div>
  )
}

/** The field's help, with a number's bounds after it ('How many … are kept (1–1000)'). */
function hintFor(field: FieldDescriptor, t: (key: string, values?: Record<string, string | number>) => string): string {
  const bounded = field.kind === 'number' && (field.min !== undefined || field.max !== undefined)
  const min = field.min ?? '−∞'
  const max = field.max ?? '∞'
  if (field.description) return bounded ? t('form.hintRange', { hint: t(field.description), min, max }) : t(field.description)
  if (field.kind === 'json') return t('form.jsonHint')
  if (bounded) return `${min} – ${max}`
  return ''
}

interface CompletionInputProps {
  id: string
  common: Record<string, unknown>
  name: string
  value: string
  onChange(value: string): void
  complete: CompleteField
  values: FormValues
}

/** A combobox: suggestions load 150 ms after typing stops; a newer query aborts the older one. */
function CompletionInput({ id, common, name, value, onChange, complete, values }: CompletionInputProps) {
  const { t } = useTranslation()
  const listId = `${id}-list`
  const [open, setOpen] = useState(false)
  const [loading, setLoading] = useState(false)
  const [items, setItems] = useState<string[]>([])
  const [active, setActive] = useState(-1)
  // A fresh object per request, so asking again for the same text (on refocus) loads again.
  const [query, setQueryState] = useState<{ text: string } | null>(null)
  const setQuery = (text: string) => setQueryState({ text })
  const completeRef = useRef(complete)
  completeRef.current = complete
  const valuesRef = useRef(values)
  valuesRef.current = values

  useEffect(() => {
    if (query === null) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      setLoading(true)
      completeRef
        .current(name, query.text, controller.signal, valuesRef.current)
        .then((found) => {
          if (controller.signal.aborted) return
          setItems(found)
          setActive(-1)
          setOpen(true)
        })
        .catch(() => {
          if (!controller.signal.aborted) setItems([]) // suggestions are a convenience; typing still works
        })
        .finally(() => {
          if (!controller.signal.aborted) setLoading(false)
        })
    }, DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [query, name])

  const pick = (item: string) => {
    onChange(item)
    setOpen(false)
    setActive(-1)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const shown = open && items.length > 0
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!shown) {
        setQuery(value)
        return
      }
      const step = event.key === 'ArrowDown' ? 1 : -1
      // -1 is "nothing chosen" (Enter submits the form); the arrows wrap through it.
      setActive((i) => {
        const next = i + step
        if (next < -1) return items.length - 1
        return next >= items.length ? -1 : next
      })
    } else if (event.key === 'Enter' && shown && active >= 0 && active < items.length) {
      event.preventDefault()
      pick(items[active])
    } else if (event.key === 'Escape' && shown) {
      // Only close the list; the palette's "back" must not see this Escape.
      event.preventDefault()
      event.stopPropagation()
      setOpen(false)
    } else if (event.key === 'Tab') {
      setOpen(false)
    }
  }

  const shown = open && (items.length > 0 || loading)
  return (
    <div className="completion">
      <input
        {...common}
        className="input"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 && active < items.length ? `${listId}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => {
          onChange(e.target.value)
          setQuery(e.target.value)
        }}
        onFocus={() => setQuery(value)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label={t('form.suggestions')} className="completion-list" hidden={!shown}>
        {loading && items.length === 0 && <li className="completion-loading muted">{t('form.loadingSuggestions')}</li>}
        {items.map((item, i) => (
          <li
            key={item}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className="completion-item mono"
            // mousedown, not click: the input's blur would close the list first.
            onMouseDown={(e) => {
              e.preventDefault()
              pick(item)
            }}
          >
            {item}
          </li>
        ))}
      </ul>
    </div>
  )
}

type Split = { amount: string; unit: string }

function splitAmount(field: FieldDescriptor, value: string): Split {
  const defaultUnit = field.kind === 'size' ? 'MB' : 's'
  if (value === '') return { amount: '', unit: defaultUnit }
  if (field.literals?.includes(value)) return { amount: '', unit: value }
  const split = field.kind === 'size' ? splitSize(value) : splitDuration(value)
  // Text the form cannot split (being typed, or wrong) stays in the amount box as it is.
  return split ?? { amount: value, unit: '' }
}

/**
 * A duration or size: an amount and a unit of SPEC 9 (d/h/m/s/ms; KB/MB/GB), joined into EMQX's
 * notation ('30s', '1MB'). Typing the whole value ('1h30m', '512KB') in the amount box works too;
 * literals ('disabled', 'infinity') are picked from the unit list.
 */
function AmountUnitInput(props: { id: string; common: Record<string, unknown>; field: FieldDescriptor; value: string; onChange(value: string): void; label: string }) {
  const { id, common, field, value, onChange, label } = props
  const { t } = useTranslation()
  const { amount, unit } = splitAmount(field, value)
  const units: readonly string[] = field.kind === 'size' ? SIZE_UNITS : DURATION_UNITS
  const literal = field.literals?.includes(unit) ?? false
  const join = (nextAmount: string, nextUnit: string) => {
    if (field.literals?.includes(nextUnit)) return onChange(nextUnit)
    const trimmed = nextAmount.trim()
    // Only a bare number takes the unit; anything else is kept as typed for validation to judge.
    onChange(trimmed === '' ? '' : /^\d+(\.\d+)?$/.test(trimmed) ? `${trimmed}${nextUnit || units[0]}` : nextAmount)
  }
  return (
    <div className="amount-unit" role="group" aria-labelledby={`${id}-label`}>
      <input
        {...common}
        className="input amount-unit-amount"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        disabled={literal}
        value={literal ? '' : amount}
        onChange={(e) => join(e.target.value, unit && !literal ? unit : units[field.kind === 'size' ? 1 : 3])}
      />
      <select
        className="select amount-unit-unit"
        aria-label={`${label} · ${t('form.unit.unit')}`}
        value={units.includes(unit) || literal ? unit : ''}
        onChange={(e) => join(literal ? '' : amount, e.target.value)}
      >
        {!units.includes(unit) && !literal && <option value="">—</option>}
        {units.map((u) => (
          <option key={u} value={u}>
            {t(`form.unit.${u}`)}
          </option>
        ))}
        {field.literals?.map((word) => (
          <option key={word} value={word}>
            {word}
          </option>
        ))}
      </select>
    </div>
  )
}

/** A point in time as typed ('now', '+1h', '-30m', RFC 3339), with what it resolves to now. */
function DateInput({ common, value, onChange }: { common: Record<string, unknown>; value: string; onChange(value: string): void }) {
  const { t } = useTranslation()
  const resolved = value.trim() ? resolveDateInput(value) : undefined
  return (
    <div className="date-input">
      <input
        {...common}
        className="input mono"
        autoComplete="off"
        spellCheck={false}
        placeholder="+1h"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {resolved && resolved !== value.trim() && (
        <span className="date-input-resolved muted mono" aria-live="polite">
          {t('form.resolvesTo', { time: new Date(resolved).toLocaleString() })}
        </span>
      )}
    </div>
  )
}

function rowsOf(value: string): [string, string][] {
  const parsed = parseKeyValues(value)
  if ('error' in parsed) {
    try {
      const raw: unknown = JSON.parse(value)
      if (Array.isArray(raw)) return raw.map((p) => (Array.isArray(p) ? [String(p[0] ?? ''), String(p[1] ?? '')] : ['', '']))
    } catch {
      // not the form's own encoding: start from one empty row
    }
    return [['', '']]
  }
  // parseKeyValues drops empty rows; the form keeps the ones being typed, so read the raw array.
  try {
    const raw: unknown = JSON.parse(value)
    if (Array.isArray(raw)) return raw.map((p) => [String((p as unknown[])[0] ?? ''), String((p as unknown[])[1] ?? '')])
  } catch {
    // key=value text or empty
  }
  return parsed.value.length ? parsed.value : [['', '']]
}

/** Rows of key and value (MQTT 5 user properties); kept as a JSON array of pairs while typed. */
function KeyValueRows({
  id,
  value,
  onChange,
  label,
  columns,
  empty = '',
}: {
  id: string
  value: string
  onChange(value: string): void
  label: string
  /** The two boxes' headings (i18n keys); Key and Value unless given. */
  columns?: FieldDescriptor['columns']
  /** What no rows are written as: '' (not given) for key-value lists, '[]' for a `rows` list. */
  empty?: '' | '[]'
}) {
  const { t } = useTranslation()
  const rows = value === '[]' ? [] : rowsOf(value)
  // Key-value lists collapse to '' (not given) when every row is empty; a `rows` list keeps its rows as typed (empty ones count as none).
  const set = (next: [string, string][]) => onChange(empty === '' && next.every(([k, v]) => k === '' && v === '') ? '' : JSON.stringify(next))
  const keyLabel = t(columns?.[0].label ?? 'form.kv.key')
  const valueLabel = t(columns?.[1].label ?? 'form.kv.value')
  const addRef = useRef<HTMLButtonElement>(null)
  return (
    <div className="kv-rows" role="group" aria-labelledby={`${id}-label`} id={id}>
      {rows.map(([key, val], i) => (
        <div className="kv-row" key={i} role="group" aria-label={`${label} · ${t('form.kv.row', { index: i + 1 })}`}>
          <input
            className="input mono"
            aria-label={keyLabel}
            placeholder={keyLabel}
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(e) => set(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))}
          />
          <input
            className="input mono"
            aria-label={valueLabel}
            placeholder={valueLabel}
            autoComplete="off"
            spellCheck={false}
            value={val}
            onChange={(e) => set(rows.map((r, j) => (j === i ? [r[0], e.target.value] : r)))}
          />
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={t('form.kv.remove', { index: i + 1 })}
            onClick={() => {
              set(rows.filter((_, j) => j !== i))
              addRef.current?.focus()
            }}
          >
            ×
          </button>
        </div>
      ))}
      <button ref={addRef} type="button" className="btn btn-sm kv-add" onClick={() => set([...rows, ['', '']])}>
        {t('form.kv.add')}
      </button>
    </div>
  )
}
