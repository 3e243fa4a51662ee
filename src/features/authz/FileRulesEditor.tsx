// The file source's acl.conf as text, saved through authz.updateFile. EMQX checks the whole file
// and names the line it cannot read; that answer stays under the editor until the next edit.
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { updateAuthzFile } from '../../../commands/authz.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'

export function FileRulesEditor({ rules }: { rules: string }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const [text, setText] = useState(rules)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const gutter = useRef<HTMLPreElement>(null)
  // EMQX names the line it could not read: `... line 3: expected ...`.
  const errorLine = Number(/\bline (\d+)/.exec(error ?? '')?.[1] ?? 0)
  const lineCount = text.split('\n').length

  const save = async () => {
    setSaving(true)
    const outcome = await run(updateAuthzFile, { rules: text })
    setSaving(false)
    if (outcome.ok) setError(null)
    else if (outcome.error.kind === 'failed') setError(outcome.error.message)
    else if (outcome.error.kind === 'invalid') setError(t('err.required'))
  }

  return (
    <section className="card authz-file">
      <label htmlFor="authz-acl" className="field-label">
        {t('form.field.aclRules')}
      </label>
      <div className="authz-acl-wrap">
      <pre className="authz-acl-gutter" aria-hidden="true" ref={gutter}>
        {Array.from({ length: lineCount }, (_, i) => (
          <span key={i} className={i + 1 === errorLine ? 'is-error' : undefined}>
            {i + 1}
          </span>
        ))}
      </pre>
      <textarea
        id="authz-acl"
        className="input authz-acl"
        spellCheck={false}
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'authz-acl-error' : 'authz-acl-hint'}
        wrap="off"
        onScroll={(event) => gutter.current?.scrollTo({ top: event.currentTarget.scrollTop })}
        onChange={(event) => {
          setText(event.target.value)
          setError(null)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault()
            void save()
          }
        }}
      />
      </div>
      {error ? (
        <p id="authz-acl-error" className="field-error authz-acl-error" role="alert">
          {error}
        </p>
      ) : (
        <p id="authz-acl-hint" className="muted">
          {t('authz.aclHint')}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-primary" disabled={saving} onClick={() => void save()}>
          {t('common.save')}
        </button>
        <button type="button" className="btn" disabled={saving || text === rules} onClick={() => (setText(rules), setError(null))}>
          {t('common.revert')}
        </button>
      </div>
    </section>
  )
}
