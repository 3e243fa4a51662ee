// A list's filter form: the screen's inputs, then Search and Reset. useFilterForm keeps what the
// inputs hold as text while typing and applies it to the URL on Search, where the list's query
// schema reads it (src/routes/searchValues.ts); the form follows the URL on back and forward.
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { SearchSchema } from '../routes/searchValues.ts'

export interface FilterBarProps {
  /** Accessible name of the form (`Client filters`). */
  label: string
  className?: string
  onSubmit(event: FormEvent): void
  onReset(): void
  children: ReactNode
}

export function FilterBar({ label, className, onSubmit, onReset, children }: FilterBarProps) {
  const { t } = useTranslation()
  return (
    <form className={`toolbar${className ? ` ${className}` : ''}`} onSubmit={onSubmit} role="search" aria-label={label}>
      {children}
      <button type="submit" className="btn btn-primary">
        {t('common.search')}
      </button>
      <button type="button" className="btn" onClick={onReset}>
        {t('common.reset')}
      </button>
    </form>
  )
}

type Draft<K extends string> = Record<K, string>

function toDraft<K extends string>(keys: readonly K[], search: Partial<Record<K, unknown>>): Draft<K> {
  return Object.fromEntries(keys.map((key) => [key, search[key] === undefined ? '' : String(search[key])])) as Draft<K>
}

export interface FilterForm<K extends string> {
  /** An input's value and onChange. */
  field(name: K): { value: string; onChange(event: { target: { value: string } }): void }
  onSubmit(event: FormEvent): void
  onReset(): void
}

/** The filters of a list's query schema: its fields but the paging. */
type FilterName<S extends SearchSchema> = Exclude<keyof S['entries'], 'page' | 'limit'> & string

/**
 * The draft of the filters in `schema` for a list whose URL is `search`; `go` shows the list with
 * new values (the page size is kept, the page starts over).
 */
export function useFilterForm<S extends SearchSchema>(
  schema: S,
  search: Partial<Record<string, unknown>>,
  go: (next: object) => void,
): FilterForm<FilterName<S>> {
  const keys = useMemo(() => Object.keys(schema.entries).filter((key) => key !== 'page' && key !== 'limit') as FilterName<S>[], [schema])
  const [draft, setDraft] = useState(() => toDraft(keys, search))
  // Back/forward or a pasted link changes the URL: the form follows it.
  useEffect(() => setDraft(toDraft(keys, search)), [keys, search])
  const limit = search.limit === undefined ? {} : { limit: search.limit }
  return {
    field: (name) => ({
      value: draft[name],
      onChange: (event) => setDraft((current) => ({ ...current, [name]: event.target.value })),
    }),
    onSubmit(event) {
      event.preventDefault()
      go({ ...draft, ...limit })
    },
    onReset() {
      setDraft(toDraft(keys, {}))
      go(limit)
    },
  }
}
