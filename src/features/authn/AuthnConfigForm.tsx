// An authenticator's settings as a form: its fields (authnFields.ts) drawn by SchemaForm, so they
// look and behave as every other form; a field appears only while its condition holds.
import { useCallback, useMemo, useState, type ReactNode } from 'react'
import type { FieldDescriptor, FieldError, FieldKind } from '../../../commands/args.ts'
import { SchemaForm } from '../../ui/SchemaForm.tsx'
import { visibleFields, type AuthnField, type AuthnFieldKind, type AuthnValues } from './authnFields.ts'

const KINDS: Record<AuthnFieldKind, FieldKind> = {
  text: 'string',
  secret: 'string',
  number: 'number',
  boolean: 'boolean',
  select: 'enum',
  json: 'json',
  textarea: 'json',
  duration: 'duration',
}

/** The label key of a field: `authn.field.password_hash_algorithm_name`. */
export const fieldLabel = (path: string) => `authn.field.${path.replaceAll('.', '_')}`

export interface AuthnConfigFormProps {
  fields: AuthnField[]
  /** The values and errors (useAuthnForm). */
  form: AuthnForm
  onSubmit(): void
  label: string
  /** The form's buttons. */
  children?: ReactNode
}

export function AuthnConfigForm({ fields, form, onSubmit, label, children }: AuthnConfigFormProps) {
  const { values, onChange, errors } = form
  const shown = visibleFields(fields, values)
  const descriptors = useMemo<FieldDescriptor[]>(
    () =>
      shown.map((field) => ({
        name: field.path,
        kind: KINDS[field.kind],
        required: Boolean(field.required) || field.kind === 'select',
        label: fieldLabel(field.path),
        options: field.options ? [...field.options] : undefined,
        secret: field.kind === 'secret' || undefined,
        description: field.description,
      })),
    // The shown fields change only with the values their conditions read.
    [shown.map((field) => field.path).join()],
  )
  return (
    <SchemaForm fields={descriptors} values={values} onChange={onChange} onSubmit={onSubmit} errors={errors} label={label} variant="settings">
      {children}
    </SchemaForm>
  )
}

/** The form's values and errors: editing a field clears its error (the whole form is checked on submit). */
export function useAuthnForm(initial: AuthnValues | (() => AuthnValues)) {
  const [values, setValues] = useState<AuthnValues>(initial)
  const [errors, setErrors] = useState<FieldError[]>([])
  const onChange = useCallback((path: string, value: string) => {
    setValues((current) => ({ ...current, [path]: value }))
    setErrors((current) => current.filter((e) => e.field !== path))
  }, [])
  return { values, setValues, errors, setErrors, onChange }
}

export type AuthnForm = ReturnType<typeof useAuthnForm>
