// A form generated from a command's argument schema (commands/args.ts describeArgs): text inputs,
// number inputs, switches for booleans, pick lists for enums, a JSON text area, and a completion
// list for fields that have a completer. Values stay strings; validateArgs coerces them.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldDescriptor, FieldError } from '../../commands/args.ts'
import './ui-widgets.css'

export type FormValues = Record<string, string>
export type CompleteField = (field: string, query: string, signal: AbortSignal) => Promise<string[]>

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
}

/** Starting values: defaults as strings, booleans off unless their default says on. */
export function initialValues(fields: FieldDescriptor[]): FormValues {
  const values: FormValues = {}
  for (const field of fields) {
    if (field.default !== undefined) values[field.name] = typeof field.default === 'string' ? field.default : JSON.stringify(field.default)
    else values[field.name] = field.kind === 'boolean' ? 'false' : ''
  }
  return values
}

const DEBOUNCE_MS = 150

export function SchemaForm(props: SchemaFormProps) {
  const { fields, values, onChange, onSubmit, errors = [], complete, completable = [], autoFocus, children, label } = props
  const formRef = useRef<HTMLFormElement>(null)
  const idBase = useId()

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
      {fields.map((field) => (
        <Field
          key={field.name}
          id={`${idBase}-${field.name}`}
          field={field}
          value={values[field.name] ?? ''}
          error={errors.find((e) => e.field === field.name)}
          onChange={(value) => onChange(field.name, value)}
          onSubmit={() => formRef.current?.requestSubmit()}
          complete={complete && completable.includes(field.name) ? complete : undefined}
        />
      ))}
      {errors
        .filter((e) => !fields.some((f) => f.name === e.field))
        .map((e) => (
          <FormLevelError key={`${e.field}:${e.key}`} error={e} />
        ))}
      {children}
    </form>
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
}

function Field({ id, field, value, error, onChange, onSubmit, complete }: FieldProps) {
  const { t } = useTranslation()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const label = t(field.label, { defaultValue: field.name })
  const hint = hintFor(field, (key) => t(key))
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined
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
          {(!field.required || value === '') && <option value="">{field.required ? t('form.choose') : '—'}</option>}
          {field.options?.map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
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
    default:
      control = complete ? (
        <CompletionInput id={id} common={common} name={field.name} value={value} onChange={onChange} complete={complete} />
      ) : (
        <input
          {...common}
          className="input"
          inputMode={field.kind === 'number' ? 'decimal' : undefined}
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )
  }

  return (
    <div className={`field schema-field schema-field-${field.kind}`}>
      <label className="field-label" htmlFor={id} id={`${id}-label`}>
        {label}
        {label !== field.name && <span className="muted mono schema-field-name">{field.name}</span>}
        {!field.required && <span className="muted schema-field-optional">({t('form.optional')})</span>}
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

function hintFor(field: FieldDescriptor, t: (key: string) => string): string {
  if (field.description) return t(field.description)
  if (field.kind === 'json') return t('form.jsonHint')
  if (field.kind === 'number' && (field.min !== undefined || field.max !== undefined))
    return `${field.min ?? '−∞'} – ${field.max ?? '∞'}`
  return ''
}

interface CompletionInputProps {
  id: string
  common: Record<string, unknown>
  name: string
  value: string
  onChange(value: string): void
  complete: CompleteField
}

/** A combobox: suggestions load 150 ms after typing stops; a newer query aborts the older one. */
function CompletionInput({ id, common, name, value, onChange, complete }: CompletionInputProps) {
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

  useEffect(() => {
    if (query === null) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      setLoading(true)
      completeRef
        .current(name, query.text, controller.signal)
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
