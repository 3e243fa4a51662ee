// Dashboard login (EMQX `POST /login` and `POST /logout`), written once for the server and the
// browser: the bodies, the login answer as the server writes it and as the browser reads it, and
// the errors. The users and password changes are contract/users.ts.
import * as v from 'valibot'

/** EMQX 5.8 answers `emqx_release:edition()`: `ce` for the open-source build, `ee` for enterprise. */
export const LOGIN_EDITION = 'ce'

export const LoginBody = v.object({ username: v.string(), password: v.string() })
export type LoginRequest = v.InferOutput<typeof LoginBody>

export const LogoutBody = v.object({ username: v.string() })

/** The answer to a good login as this server writes it. */
export const LoginAnswerSchema = v.object({
  token: v.string(),
  version: v.string(),
  license: v.object({ edition: v.literal(LOGIN_EDITION) }),
  role: v.string(),
})

/** The answer to a good login as the browser reads it from any EMQX 5. */
export const loginResponseSchema = v.object({
  token: v.string(),
  version: v.optional(v.string(), ''),
  /** `ee` for enterprise; `ce` (EMQX 5.8) or `opensource` (older answers) for community. */
  license: v.object({ edition: v.string() }),
  role: v.optional(v.string()),
})
export type LoginResponse = v.InferOutput<typeof loginResponseSchema>

/** The errors of this area: status and EMQX code. */
export const loginErrors = {
  /** 400: a body without a string username (and password, for a login). */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 401: an unknown user or a wrong password (one answer for both: `Auth failed`). */
  badUsernameOrPwd: { status: 401, code: 'BAD_USERNAME_OR_PWD' },
  /** 401: too many failed logins for this user; a `retry-after` header says when to try again. */
  loginLocked: { status: 401, code: 'LOGIN_LOCKED' },
  /** 429: too many failed logins from this address; with `retry-after`. */
  tooManyRequests: { status: 429, code: 'TOO_MANY_REQUESTS' },
  /** 401: a logout whose username is not the token's. */
  wrongTokenOrUsername: { status: 401, code: 'WRONG_TOKEN_OR_USERNAME' },
} as const
