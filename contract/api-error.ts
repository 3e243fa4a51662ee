// The one error of the EMQX REST API, on both sides: the server throws it to answer
// `{code, message}` with a status, and the browser and the CLI receive failures as it (network
// failures carry status 0). No DOM and no Node APIs here.

/** An HTTP status with EMQX's upper-case code (`CLIENTID_NOT_FOUND`) and a human message. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string

  constructor(status: number, code: string, message: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
  }
}
