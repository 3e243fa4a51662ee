// A key/value grid (`.desc-list`) of an object's fields, as the detail screens show them.
import { escapeControl } from './escapeControl.ts'

export interface GridField {
  id: string
  /** Already translated. */
  label: string
  text: string
  /** Shown on hover, e.g. the exact value behind a rounded one. */
  title?: string
  mono?: boolean
}

/**
 * Each pair sits in a `display: contents` wrapper carrying `data-field`, so the grid lays out the
 * <dt>/<dd> cells directly while tests and styles can still address one field.
 */
export function FieldGrid({ fields, className, pairClassName }: { fields: readonly GridField[]; className?: string; pairClassName?: string }) {
  return (
    <dl className={className ? `desc-list ${className}` : 'desc-list'}>
      {fields.map((field) => (
        <div key={field.id} className={pairClassName} style={{ display: 'contents' }} data-field={field.id}>
          <dt>{field.label}</dt>
          <dd className={field.mono ? 'mono' : undefined} title={field.title}>
            {escapeControl(field.text)}
          </dd>
        </div>
      ))}
    </dl>
  )
}
