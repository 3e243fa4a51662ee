// The palette's script view: several commands, one per line (pasted into the palette or typed
// here). Every line is planned before anything runs: the plan lists the steps or the problems
// (line, column, argument). Run asks once for all dangerous steps, then runs them in order through
// the same runner as any command (terminal line, history entry), showing each step's result.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { CommandError } from '../../../commands/define.ts'
import { describeArgs, formatArgs, maskSecrets } from '../../../commands/args.ts'
import { executePlan, type StepResult } from '../../../commands/script/execute.ts'
import { planScript, type PlanStep, type ScriptError } from '../../../commands/script/plan.ts'
import { terminalLog } from '../../state/terminalLog.ts'
import { useRunCommand } from '../commands/useRunCommand.ts'
import { useUiEffects } from '../uiEffects.ts'
import { useApi } from '../useApi.ts'
import './script-view.css'

export interface ScriptViewProps {
  /** The script to start from (what was pasted). */
  text: string
  onBack(): void
}

/** A step's state as shown: `warning` is a dry-run step whose arguments the live API does not know. */
type StepState = 'pending' | 'running' | 'warning' | StepResult['status']

interface StepView {
  state: StepState
  /** The error of a failed step, or the dry run's warnings, translated. */
  detail?: string
}

type Phase =
  | { kind: 'edit' }
  | { kind: 'confirm'; dangerous: PlanStep[] }
  | { kind: 'running'; dryRun: boolean }
  | { kind: 'done'; dryRun: boolean; summary: string; ok: boolean }

export function ScriptView({ text: initialText, onBack }: ScriptViewProps) {
  const { t } = useTranslation()
  const api = useApi()
  const ui = useUiEffects()
  const run = useRunCommand()
  const [text, setText] = useState(initialText)
  const [continueOnError, setContinueOnError] = useState(false)
  const [phase, setPhase] = useState<Phase>({ kind: 'edit' })
  const [steps, setSteps] = useState<StepView[]>([])
  const abortRef = useRef<AbortController | null>(null)
  const editorRef = useRef<HTMLTextAreaElement>(null)
  const confirmRef = useRef<HTMLButtonElement>(null)
  const idBase = useId()

  const plan = useMemo(() => planScript(text), [text])
  const busy = phase.kind === 'running'

  useEffect(() => {
    const editor = editorRef.current
    if (!editor) return
    editor.focus()
    editor.setSelectionRange(editor.value.length, editor.value.length)
  }, [])
  useEffect(() => {
    if (phase.kind === 'confirm') confirmRef.current?.focus()
  }, [phase.kind])
  // A stopped view must not leave a script running behind it.
  useEffect(() => () => abortRef.current?.abort(), [])

  const edit = (next: string) => {
    setText(next)
    if (phase.kind !== 'edit') setPhase({ kind: 'edit' })
    setSteps([])
  }

  const start = (dryRun: boolean) => {
    if (busy || !plan.ok || plan.steps.length === 0) return
    const dangerous = plan.steps.filter((step) => step.confirm)
    if (!dryRun && dangerous.length) setPhase({ kind: 'confirm', dangerous })
    else void execute(dryRun)
  }

  const execute = async (dryRun: boolean) => {
    if (!plan.ok) return
    const total = plan.steps.length
    const controller = new AbortController()
    abortRef.current = controller
    setPhase({ kind: 'running', dryRun })
    // The confirmation's button goes away; keep focus in the view so its keys (Escape) still work.
    editorRef.current?.focus()
    setSteps(plan.steps.map(() => ({ state: 'pending' })))
    const update = (index: number, view: StepView) => setSteps((list) => list.map((s, i) => (i === index ? view : s)))
    terminalLog.append({ source: 'script', status: 'info', message: t(dryRun ? 'scriptView.log.dryStart' : 'scriptView.log.start', { count: total }) })

    const outcome = await executePlan(plan, { api, ui }, {
      dryRun,
      continueOnError,
      // The operator confirmed every dangerous step at once, above; nothing asks again per step.
      confirmDanger: true,
      signal: controller.signal,
      onStart: (_step, index) => update(index, { state: 'running' }),
      onStep: (result) => {
        const detail = detailOf(result, (key, values) => t(key, values ?? {}))
        const state: StepState = result.status === 'checked' && result.warnings?.length ? 'warning' : result.status
        update(result.index, { state, ...(detail ? { detail } : {}) })
        // Steps that ran wrote their own line through the runner; these did not run.
        const args = formatArgs(maskSecrets(result.step.command, result.step.args))
        if (result.status === 'skipped')
          terminalLog.append({ source: result.step.command.id, args, status: 'cancelled', message: t('scriptView.log.skipped') })
        else if (result.status === 'checked')
          terminalLog.append({ source: result.step.command.id, args, status: 'info', message: detail ?? t('scriptView.log.checked') })
      },
      runStep: async (step) => {
        const result = await run(step.command, step.raw, { confirmed: true, notifySuccess: false, source: 'script' })
        if (result.ok) return result.result
        // A translatable error reaches the step's line already in the operator's language.
        if (result.error.kind === 'failed') throw result.error.error instanceof CommandError ? new Error(result.error.message) : result.error.error
        // The plan validated this line, so only a changed registry or a lost browser context gets here.
        throw new Error(result.error.kind)
      },
    })
    abortRef.current = null

    const count = (status: StepState) => outcome.results.filter((r) => r.status === status).length
    const ok = count('ok')
    const failed = count('failed')
    let summary: string
    if (dryRun) {
      const warnings = outcome.results.reduce((n, r) => n + (r.warnings?.length ?? 0), 0)
      summary = warnings ? t('scriptView.summary.dryWarnings', { count: warnings }) : t('scriptView.summary.dry', { count: total })
    } else if (outcome.ok) summary = t('scriptView.summary.ok', { count: total })
    else if (controller.signal.aborted && failed === 0) summary = t('scriptView.summary.aborted', { ok, total })
    else if (continueOnError) summary = t('scriptView.summary.failed', { ok, failed, total })
    else {
      const stoppedAt = outcome.results.find((r) => r.status === 'failed' || r.status === 'cancelled')
      summary = t('scriptView.summary.stopped', { ok, total, line: stoppedAt?.step.line ?? '?' })
    }
    terminalLog.append({ source: 'script', status: outcome.ok ? 'info' : 'error', message: summary })
    setPhase({ kind: 'done', dryRun, summary, ok: outcome.ok })
  }

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.nativeEvent.isComposing) return
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      event.stopPropagation()
      if (phase.kind === 'confirm') void execute(false)
      else start(event.shiftKey)
    } else if (event.key === 'Escape') {
      // Escape steps back inside the view first: out of the confirmation, or stops a running script.
      if (phase.kind === 'confirm') {
        event.preventDefault()
        event.stopPropagation()
        setPhase({ kind: 'edit' })
        editorRef.current?.focus()
      } else if (busy) {
        event.preventDefault()
        event.stopPropagation()
        abortRef.current?.abort()
      }
    }
  }

  const status = !plan.ok
    ? t('scriptView.errors', { count: plan.errors.length })
    : plan.steps.length
      ? t('scriptView.steps', { count: plan.steps.length })
      : ''

  return (
    <div className="palette-step script-view" onKeyDown={onKeyDown}>
      <div className="palette-step-header">
        <span className="palette-step-title">{t('scriptView.title')}</span>
        <span className={plan.ok ? 'muted' : 'palette-danger'} id={`${idBase}-status`}>
          {status}
        </span>
      </div>
      <div className="palette-step-body script-body">
        <textarea
          ref={editorRef}
          className="script-editor mono"
          value={text}
          onChange={(event) => edit(event.target.value)}
          aria-label={t('scriptView.editor')}
          aria-describedby={`${idBase}-status`}
          aria-invalid={plan.ok ? undefined : true}
          placeholder={t('scriptView.placeholder')}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          readOnly={busy}
          rows={Math.min(8, Math.max(3, text.split('\n').length))}
        />
        {!plan.ok ? (
          <ScriptErrors errors={plan.errors} text={text} />
        ) : plan.steps.length === 0 ? (
          <p className="muted script-note">{t('scriptView.noSteps')}</p>
        ) : (
          <ol className="script-steps" aria-label={t('scriptView.planLabel')}>
            {plan.steps.map((step, index) => (
              <StepRow key={`${step.line}:${index}`} step={step} view={steps[index]} />
            ))}
          </ol>
        )}
        {phase.kind === 'confirm' && (
          <div className="script-confirm" role="alertdialog" aria-labelledby={`${idBase}-confirm`}>
            <p id={`${idBase}-confirm`} className="script-confirm-title">
              {t('scriptView.confirmTitle', { count: phase.dangerous.length })}
            </p>
            <ul className="script-confirm-list">
              {phase.dangerous.map((step, i) => (
                <li key={i}>
                  <span className="mono muted">{t('scriptView.line', { line: step.line })}</span> {t(step.describe.key, step.describe.values ?? {})}
                </li>
              ))}
            </ul>
            <div className="palette-actions">
              <button type="button" className="btn" onClick={() => setPhase({ kind: 'edit' })}>
                {t('confirm.cancel')}
              </button>
              <button
                ref={confirmRef}
                type="button"
                className="btn btn-danger"
                onClick={() => void execute(false)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
                    event.preventDefault()
                    void execute(false)
                  }
                }}
              >
                {t('scriptView.confirmRun')}
              </button>
            </div>
          </div>
        )}
        {phase.kind === 'done' && (
          <p className={phase.ok ? 'script-summary' : 'script-summary palette-danger'} role="status">
            {phase.summary}
          </p>
        )}
      </div>
      <div className="script-actions">
        <button type="button" className="btn" onClick={onBack} disabled={busy}>
          {t('scriptView.back')}
        </button>
        <label className="script-check">
          <input type="checkbox" checked={continueOnError} disabled={busy} onChange={(event) => setContinueOnError(event.target.checked)} />
          {t('scriptView.continueOnError')}
        </label>
        <span className="script-actions-spacer" />
        {busy ? (
          <button type="button" className="btn" onClick={() => abortRef.current?.abort()}>
            {t('scriptView.stop')}
          </button>
        ) : (
          <>
            <button type="button" className="btn" disabled={!plan.ok || plan.steps.length === 0 || phase.kind === 'confirm'} onClick={() => start(true)}>
              {t('scriptView.dryRun')}
            </button>
            <button
              type="button"
              className={plan.ok && plan.steps.some((s) => s.danger) ? 'btn btn-danger' : 'btn btn-primary'}
              disabled={!plan.ok || plan.steps.length === 0 || phase.kind === 'confirm'}
              onClick={() => start(false)}
            >
              {t('scriptView.run')}
            </button>
          </>
        )}
      </div>
      <div className="palette-footer muted">
        {t(phase.kind === 'confirm' ? 'scriptView.hintConfirm' : busy ? 'scriptView.hintRunning' : 'scriptView.hint')}
      </div>
    </div>
  )
}

function detailOf(result: StepResult, t: (key: string, values?: Record<string, string | number>) => string): string | undefined {
  if (result.status === 'failed' && result.error)
    return result.error.message && result.error.message !== result.error.code ? `${result.error.code}: ${result.error.message}` : result.error.code
  if (result.warnings?.length) return result.warnings.map((w) => t(w.key, w.values ?? {})).join('; ')
  return undefined
}

function StepRow({ step, view }: { step: PlanStep; view: StepView | undefined }) {
  const { t } = useTranslation()
  const state = view?.state
  const args = formatArgs(maskSecrets(step.command, withoutDefaults(step)))
  const describe = step.command.describe ? t(step.describe.key, step.describe.values ?? {}) : undefined
  return (
    <li className={`script-step${state ? ` is-${state}` : ''}`}>
      <span className="script-line mono muted">{step.line}</span>
      <span className="script-step-main">
        <span className="script-step-title">
          {t(step.command.title)}
          {step.danger && <span className="tag tag-danger palette-item-tag">{t('scriptView.danger')}</span>}
          <span className="mono muted script-step-id">{step.command.id}</span>
        </span>
        {args && <span className="script-step-args mono">{args}</span>}
        {describe && <span className="script-step-describe muted">{describe}</span>}
        {view?.detail && <span className={state === 'failed' ? 'script-step-detail palette-danger' : 'script-step-detail'}>{view.detail}</span>}
      </span>
      {state && <span className={`tag script-state ${stateTag(state)}`}>{t(`scriptView.status.${state}`)}</span>}
    </li>
  )
}

/** The step's arguments less those left at their defaults: what the operator wrote or must notice. */
function withoutDefaults(step: PlanStep): Record<string, unknown> {
  const defaults = new Map(describeArgs(step.command).map((field) => [field.name, field.default]))
  return Object.fromEntries(Object.entries(step.args).filter(([name, value]) => !Object.is(defaults.get(name), value)))
}

function stateTag(state: StepState): string {
  switch (state) {
    case 'ok':
    case 'checked':
      return 'tag-success'
    case 'failed':
    case 'cancelled':
      return 'tag-danger'
    case 'running':
    case 'warning':
      return 'tag-warning'
    default:
      return 'tag-muted'
  }
}

/** Each problem with its place, the line as written and a mark under the column it points at. */
function ScriptErrors({ errors, text }: { errors: ScriptError[]; text: string }) {
  const { t } = useTranslation()
  const lines = text.split(/\r?\n/)
  return (
    <ul className="script-errors" aria-label={t('scriptView.errorsLabel')}>
      {errors.map((error, i) => {
        const source = lines[error.line - 1] ?? ''
        return (
          <li key={i} className="script-error">
            <span className="script-error-where mono">
              {t('scriptView.at', { line: error.line, column: error.column })}
              {error.arg ? ` · ${error.arg}` : ''}
            </span>
            <span className="script-error-text palette-danger">{t(error.key, error.values ?? {})}</span>
            <code className="script-error-source mono" aria-hidden="true">
              {source}
              {'\n'}
              {' '.repeat(Math.max(0, error.column - 1))}^
            </code>
          </li>
        )
      })}
    </ul>
  )
}
