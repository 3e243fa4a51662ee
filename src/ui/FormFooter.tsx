// The end of a screen's form (a rule's, a webhook's): what the server said when it refused the
// save, kept on the form, then Cancel (a link back) and the submit button, waiting while it saves.
import type { ReactNode } from 'react'

export function FormFooter({ refusal, cancel, submitLabel, saving }: { refusal: string | null; cancel: ReactNode; submitLabel: string; saving: boolean }) {
  return (
    <>
      {refusal ? (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      ) : null}
      <div className="form-actions">
        {cancel}
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {submitLabel}
        </button>
      </div>
    </>
  )
}
