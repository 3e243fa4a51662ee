// A rule's outputs in the order EMQX runs them: add a republish, the console or an action by its
// id, move one up or down (also Alt+↑/↓ from inside it), remove one. An action id is checked against
// the server as it is typed, and the form says plainly when no such action exists.
import { useEffect, useId, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ACTION_ID } from '../../../commands/rules.ts'
import { useApi } from '../../app/useApi.ts'
import { Field, TextField } from '../websocket/controls.tsx'
import { actionExists } from './actionExists.ts'
import { RepublishFields } from './RepublishFields.tsx'
import { moveOutput, newOutput, type ActionDraft, type OutputDraft, type OutputKind, type RuleFormErrors } from './ruleFormValues.ts'

const ADDABLE: OutputKind[] = ['republish', 'console', 'action']
/** How long typing pauses before an action id is looked up. */
const CHECK_DELAY_MS = 300

interface Props {
  outputs: OutputDraft[]
  /** The whole form's errors; this editor reads `outputs.<index>.<field>`. */
  errors: RuleFormErrors
  onChange(outputs: OutputDraft[]): void
}

export function OutputsEditor({ outputs, errors, onChange }: Props) {
  const { t } = useTranslation()
  const hasConsole = outputs.some((output) => output.kind === 'console')

  const replace = (index: number, draft: OutputDraft) => onChange(outputs.map((output, i) => (i === index ? draft : output)))
  const move = (index: number, to: number) => {
    if (to >= 0 && to < outputs.length) onChange(moveOutput(outputs, index, to))
  }
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return
    event.preventDefault()
    move(index, index + (event.key === 'ArrowUp' ? -1 : 1))
  }
  const errorsOf = (index: number) => {
    const prefix = `outputs.${index}.`
    return Object.fromEntries(Object.entries(errors).flatMap(([key, value]) => (key.startsWith(prefix) ? [[key.slice(prefix.length), value]] : [])))
  }

  return (
    <section className="rules-outputs" aria-labelledby="rules-outputs-title">
      <h2 className="card-title" id="rules-outputs-title">
        {t('rules.outputs')}
      </h2>
      <p className="muted rules-outputs-intro">{t('rules.outputsIntro')}</p>
      {outputs.length === 0 ? <p className="muted">{t('rules.noOutputs')}</p> : null}
      <ol className="rules-output-list">
        {outputs.map((output, index) => (
          <li key={output.key} className="rules-output" data-kind={output.kind} onKeyDown={(event) => onKeyDown(event, index)}>
            <div className="rules-output-head">
              <strong>
                {index + 1}. {t(`rules.outputKind.${output.kind}`)}
              </strong>
              <span className="rules-output-tools">
                <button type="button" className="btn btn-ghost btn-sm" disabled={index === 0} aria-label={t('rules.moveUp', { n: index + 1 })} title={t('rules.moveHint')} onClick={() => move(index, index - 1)}>
                  ↑
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  disabled={index === outputs.length - 1}
                  aria-label={t('rules.moveDown', { n: index + 1 })}
                  title={t('rules.moveHint')}
                  onClick={() => move(index, index + 1)}
                >
                  ↓
                </button>
                <button type="button" className="btn btn-ghost btn-sm row-delete" aria-label={t('rules.removeOutput', { n: index + 1 })} onClick={() => onChange(outputs.filter((_, i) => i !== index))}>
                  {t('rules.remove')}
                </button>
              </span>
            </div>
            {output.kind === 'republish' ? <RepublishFields draft={output} errors={errorsOf(index)} onChange={(draft) => replace(index, draft)} /> : null}
            {output.kind === 'console' ? <p className="muted">{t('rules.consoleHint')}</p> : null}
            {output.kind === 'action' ? <ActionIdField draft={output} error={errorsOf(index).id} onChange={(draft) => replace(index, draft)} /> : null}
            {output.kind === 'custom' ? (
              <Field label={t('rules.customOutput')} error={errorsOf(index).json ? t(errorsOf(index).json) : undefined}>
                {(control) => (
                  <textarea {...control} className="input mono" rows={5} spellCheck={false} value={output.json} onChange={(event) => replace(index, { ...output, json: event.target.value })} />
                )}
              </Field>
            ) : null}
          </li>
        ))}
      </ol>
      <div className="rules-output-add" role="group" aria-label={t('rules.addOutput')}>
        {ADDABLE.map((kind) => (
          <button key={kind} type="button" className="btn btn-sm" disabled={kind === 'console' && hasConsole} onClick={() => onChange([...outputs, newOutput(kind)])}>
            + {t(`rules.outputKind.${kind}`)}
          </button>
        ))}
      </div>
    </section>
  )
}

type Existence = { id: string; exists: boolean | undefined }

/** An action's `type:name`, with what the server says about it once typing pauses. */
function ActionIdField({ draft, error, onChange }: { draft: ActionDraft; error: string | undefined; onChange(draft: ActionDraft): void }) {
  const { t } = useTranslation()
  const api = useApi()
  const id = draft.id.trim()
  const [checked, setChecked] = useState<Existence | null>(null)
  const [known, setKnown] = useState<string[]>([])
  const listId = useId()

  // The actions there are, offered as the id is typed (a real EMQX without /actions offers none).
  useEffect(() => {
    const controller = new AbortController()
    api.connectors.actions.summary(controller.signal).then(
      (actions) => setKnown(actions.map((action) => `${action.type}:${action.name}`)),
      () => undefined,
    )
    return () => controller.abort()
  }, [api])

  useEffect(() => {
    if (!ACTION_ID.test(id)) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      void actionExists(api, id, controller.signal).then((exists) => {
        if (!controller.signal.aborted) setChecked({ id, exists })
      })
    }, CHECK_DELAY_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [api, id])

  const exists = checked?.id === id ? checked.exists : undefined
  const hint = exists === false ? (
    <span className="rules-action-missing" role="status">
      {t('rules.actionMissing', { id })}
    </span>
  ) : exists === true ? (
    t('rules.actionFound', { id })
  ) : (
    t('rules.output.actionIdHint')
  )
  return (
    <TextField
      label={t('rules.output.actionId')}
      value={draft.id}
      onChange={(value) => onChange({ ...draft, id: value })}
      error={error ? t(error) : undefined}
      hint={error ? undefined : hint}
      mono
      placeholder="http:my_webhook"
      data-field="actionId"
      list={listId}
      after={
        <datalist id={listId}>
          {known.map((option) => (
            <option key={option} value={option} />
          ))}
        </datalist>
      }
    />
  )
}
