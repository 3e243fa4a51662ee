// A command's argument form in a dialog, for a screen's Create / Edit / Change password buttons:
// the fields, labels, checks and live completion are the command's own (as in the palette), and
// submitting runs it through useRunCommand, so its confirmation and notification are the same too.
import { useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { describeArgs, validateArgs, type FieldError } from '../../commands/args.ts'
import type { ArgsSchema, Command } from '../../commands/define.ts'
import { useRunCommand, type RunOptions } from '../app/commands/useRunCommand.ts'
import { useApi } from '../app/useApi.ts'
import { Dialog } from './Dialog.tsx'
import { SchemaForm, initialValues, type FormValues } from './SchemaForm.tsx'

export interface CommandDialogProps<S extends ArgsSchema, R> {
  command: Command<S, R>
  /** Heading; the command's title when left out. */
  title?: string
  /** Starting values over the command's defaults. */
  values?: FormValues
  /** Arguments given by the screen (the row's name) and not shown as fields. */
  fixed?: readonly string[]
  /** Form-only checks run before the command's own (a password typed twice). */
  check?(values: FormValues): FieldError[]
  /** Shown inside the form after the fields (a confirmation box). */
  extra?(values: FormValues, errors: FieldError[], onChange: (name: string, value: string) => void): ReactNode
  /** Values that are the form's own and not the command's (removed before running). */
  formOnly?: readonly string[]
  submitLabel?: string
  runOptions?: RunOptions
  testId?: string
  onDone(result: R): void
  onClose(): void
}

export function CommandDialog<S extends ArgsSchema, R>(props: CommandDialogProps<S, R>) {
  const { command, title, fixed = [], check, extra, formOnly = [], submitLabel, runOptions, testId, onDone, onClose } = props
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const allFields = useMemo(() => describeArgs(command), [command])
  const fields = useMemo(() => allFields.filter((field) => !fixed.includes(field.name)), [allFields, fixed])
  const [values, setValues] = useState<FormValues>(() => ({ ...initialValues(allFields), ...props.values }))
  const [errors, setErrors] = useState<FieldError[]>([])
  const [running, setRunning] = useState(false)

  const onChange = (name: string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }))
    setErrors((current) => current.filter((e) => e.field !== name))
  }

  const argsOf = (all: FormValues): FormValues => {
    const args: FormValues = {}
    for (const [name, value] of Object.entries(all)) {
      if (formOnly.includes(name)) continue
      // An empty optional field is left out, as the palette leaves it out.
      const field = allFields.find((f) => f.name === name)
      if (value === '' && field && !field.required) continue
      args[name] = value
    }
    return args
  }

  const onSubmit = async () => {
    const args = argsOf(values)
    const checked = validateArgs(command, args)
    // The form's own checks say more (which password rule); the command's cover the rest.
    const own = check?.(values) ?? []
    const found = [...own, ...(checked.ok ? [] : checked.errors.filter((e) => !own.some((o) => o.field === e.field)))]
    if (found.length) {
      setErrors(found)
      return
    }
    setRunning(true)
    const outcome = await run(command, args, runOptions)
    setRunning(false)
    if (outcome.ok) onDone(outcome.result)
    else if (outcome.error.kind === 'invalid') setErrors(outcome.error.errors)
  }

  return (
    <Dialog title={title ?? t(command.title)} className="command-dialog" testId={testId} onClose={onClose}>
      <div className="dialog-body">
        <SchemaForm
          label={title ?? t(command.title)}
          fields={fields}
          values={values}
          // A form-only field shows its own error (extra), not as the whole form's.
          errors={errors.filter((e) => !formOnly.includes(e.field))}
          onChange={onChange}
          onSubmit={() => void onSubmit()}
          autoFocus
          variant="settings"
          completable={Object.keys(command.complete ?? {})}
          complete={(field, query, signal, current) => {
            const completer = command.complete?.[field as keyof typeof command.complete]
            return completer ? completer(api, query, signal, current) : Promise.resolve([])
          }}
        >
          {extra?.(values, errors, onChange)}
          <div className="form-actions command-dialog-actions">
            <button type="button" className="btn" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" className={command.danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={running}>
              {submitLabel ?? t('common.confirm')}
            </button>
          </div>
        </SchemaForm>
      </div>
    </Dialog>
  )
}
