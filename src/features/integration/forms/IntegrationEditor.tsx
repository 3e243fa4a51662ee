// The form of one connector, action or source, for a create flow (a name to give) or its settings
// (an id to keep): the catalogue's fields with SPEC 5's checks, Test connectivity running the
// role's `test` command ('Test success, your configuration works fine' / 'Test failed' with the
// reason) and Create or Save running `create` or `update`. Leaving it with edits warns.
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldError } from '../../../../commands/args.ts'
import { nameError, type BridgeKind } from '../../../../contract/connectors.ts'
import type { IntegrationRole } from '../../../../contract/integration-fields/index.ts'
import { useRunCommand } from '../../../app/commands/useRunCommand.ts'
import { useLeaveGuard } from '../../../ui/useLeaveGuard.ts'
import { mqttBridgeErrors, urlTemplateError } from './bridgeRules.ts'
import { ROLE_COMMANDS } from './commandsOf.ts'
import { ConnectorPicker } from './ConnectorPicker.tsx'
import { IntegrationFields } from './IntegrationFields.tsx'
import { CONNECTOR, NAME, useIntegrationForm } from './useIntegrationForm.ts'
import { useRuleContext } from './useRuleContext.ts'

export interface IntegrationEditorProps {
  role: IntegrationRole
  type: string
  /** Settings: the id being edited (its name is fixed). Create: undefined. */
  id?: string
  /** A config read from the server: the object's own (settings) or the one duplicated. */
  config?: Record<string, unknown>
  name?: string
  connector?: string
  /** After a successful create or save, with the object's id. */
  onDone(id: string): void
  /** Extra buttons before Test (Back to the type step, Cancel in a dialog). */
  extraButtons?: ReactNode
  /** In a dialog: no leave guard of its own (the page's stays). */
  inDialog?: boolean
}

type TestState = { kind: 'idle' } | { kind: 'running' } | { kind: 'ok' } | { kind: 'failed'; message: string }

export function IntegrationEditor({ role, type, id, config, name, connector, onDone, extraButtons, inDialog }: IntegrationEditorProps) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const form = useIntegrationForm({ role, type, config, name: id ? id.slice(id.indexOf(':') + 1) : name, connector })
  const { values, setErrors } = form
  const [busy, setBusy] = useState(false)
  const [test, setTest] = useState<TestState>({ kind: 'idle' })
  const guard = useLeaveGuard(form.dirty && !inDialog)
  const mqttBridge = type === 'mqtt' && role !== 'connector'
  const context = useRuleContext(type, values[CONNECTOR] ?? '', mqttBridge && (values[CONNECTOR] ?? '') !== '')
  const commands = ROLE_COMMANDS[role]

  /** The arguments of create and test, or the errors to show. */
  const check = (): { name: string; config: Record<string, unknown> } | { errors: FieldError[] } => {
    const built = form.build()
    const found: FieldError[] = 'errors' in built ? [...built.errors] : []
    const objectName = values[NAME] ?? ''
    if (!id) {
      if (objectName === '') found.push({ field: NAME, key: 'err.nameRequired' })
      else if (nameError(objectName)) found.push({ field: NAME, key: 'integration.err.name' })
    }
    if (type === 'http' && role === 'connector') found.push(...urlTemplateError(values.url ?? ''))
    if (mqttBridge && context) {
      const kind: BridgeKind = role === 'action' ? 'actions' : 'sources'
      found.push(...mqttBridgeErrors({ kind, name: objectName, topic: values['parameters.topic'] ?? '', ...context }))
    }
    const unique = found.filter((e, i) => found.findIndex((o) => o.field === e.field) === i)
    if (unique.length || 'errors' in built) return { errors: unique }
    return { name: objectName, config: built.config }
  }

  const argsOf = (checked: { name: string; config: Record<string, unknown> }) => ({
    type,
    name: checked.name,
    config: checked.config,
    ...(role === 'connector' ? {} : { connector: values[CONNECTOR] }),
  })

  const onTest = async () => {
    const checked = check()
    if ('errors' in checked) return setErrors(checked.errors)
    setTest({ kind: 'running' })
    const outcome = await run(commands.test, argsOf(checked), { notifyFailure: false })
    if (outcome.ok) setTest({ kind: 'ok' })
    else if (outcome.error.kind === 'failed') setTest({ kind: 'failed', message: outcome.error.message })
    else if (outcome.error.kind === 'invalid') {
      setErrors(outcome.error.errors)
      setTest({ kind: 'idle' })
    } else setTest({ kind: 'idle' })
  }

  const onSubmit = async () => {
    const checked = check()
    if ('errors' in checked) return setErrors(checked.errors)
    setBusy(true)
    const outcome = id ? await run(commands.update, { id, config: checked.config }) : await run(commands.create, argsOf(checked))
    setBusy(false)
    if (!outcome.ok) return
    guard.release()
    onDone(id ?? `${type}:${checked.name}`)
  }

  return (
    <form
      className="integration-form"
      noValidate
      aria-label={t(id ? `integrationForms.settingsTitle.${role}` : `integrationForms.createTitle.${role}`)}
      onSubmit={(event) => {
        event.preventDefault()
        // The connector dialog's form sits in a portal inside the action's: its submit stays its own.
        event.stopPropagation()
        void onSubmit()
      }}
    >
      <IntegrationFields
        role={role}
        form={form}
        withName={!id}
        connector={role === 'connector' ? undefined : <ConnectorPicker type={type} form={form} />}
        onSubmit={() => void onSubmit()}
      />
      {test.kind === 'ok' ? (
        <p className="integration-test-result ok-text" role="status">
          {t('integration.testSuccess')}
        </p>
      ) : null}
      {test.kind === 'failed' ? (
        <p className="integration-test-result field-error" role="alert">
          {test.message}
        </p>
      ) : null}
      <div className="form-actions">
        {extraButtons}
        <button type="button" className="btn" disabled={test.kind === 'running'} onClick={() => void onTest()}>
          {t(test.kind === 'running' ? 'integrationForms.testing' : 'integrationForms.test')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t(id ? 'common.save' : 'integrationForms.create')}
        </button>
      </div>
    </form>
  )
}
