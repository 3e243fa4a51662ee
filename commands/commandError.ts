// What a command says when it fails, as translatable text: the runner shows it in the operator's
// language. Its own file, so the test client's engine (src/testclient) throws it without importing
// define.ts, which names the engine's manager in the UiEffects port.

/** A translatable text: an i18n key with interpolation values. */
export interface Text {
  key: string
  values?: Record<string, string | number>
}

/** An error whose text is translatable: the runner shows it in the operator's language. */
export class CommandError extends Error {
  readonly text: Text
  /** A second text filled in as `{{reason}}` (a broker's reason code under 'Publishing failure'). */
  readonly reason: Text | CommandError | undefined
  constructor(text: Text, reason?: Text | CommandError) {
    super(text.key)
    this.name = 'CommandError'
    this.text = text
    this.reason = reason
  }

  /** The message in the operator's language. */
  translate(t: (key: string, values?: Record<string, string | number>) => string): string {
    const reason = this.reason instanceof CommandError ? this.reason.translate(t) : this.reason && t(this.reason.key, this.reason.values)
    const values = reason === undefined ? this.text.values : { ...this.text.values, reason }
    return t(this.text.key, values)
  }
}
