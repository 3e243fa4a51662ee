// Dashboard users (EMQX 5.8 emqx_dashboard_api, emqx_dashboard_admin): GET/POST /users,
// PUT/DELETE /users/{username}, POST /users/{username}/change_pwd. The bodies the server parses,
// the user the console reads, the name and password rules, and EMQX's error codes and messages.
import * as v from 'valibot'

/** The only role the open-source edition has; EMQX refuses any other with 'Role does not exist'. */
export const ADMINISTRATOR = 'administrator'

export const userSchema = v.object({
  username: v.string(),
  description: v.optional(v.string(), ''),
  role: v.optional(v.string()),
  /** `local` for users of this list (EMQX Enterprise adds single sign-on backends). */
  backend: v.optional(v.string()),
})
export type DashboardUser = v.InferOutput<typeof userSchema>

export const CreateUserBody = v.object({
  username: v.optional(v.string(), ''),
  password: v.optional(v.string(), ''),
  description: v.nullish(v.string(), ''),
  role: v.nullish(v.string(), ADMINISTRATOR),
})

/** EMQX's handler reads `description` unconditionally: it is required. */
export const UpdateUserBody = v.object({
  description: v.string('is required'),
  role: v.nullish(v.string(), ADMINISTRATOR),
})

export const ChangePasswordBody = v.object({ old_pwd: v.string(), new_pwd: v.string() })

/** Letters, digits and underscores (emqx_dashboard_admin:legal_username). */
export const USERNAME = /^[_a-zA-Z0-9]+$/

export type PasswordIssue = 'length' | 'ascii' | 'mix'

/** The first rule a new password breaks: 8 to 64 printable ASCII characters mixing two of letters, digits, symbols. */
export function passwordIssue(password: string): PasswordIssue | undefined {
  if (password.length < 8 || password.length > 64) return 'length'
  if (!/^[\x20-\x7e]*$/.test(password)) return 'ascii'
  const kinds = [/[0-9]/, /[A-Za-z]/, /[^0-9A-Za-z]/].filter((kind) => kind.test(password)).length
  return kinds < 2 ? 'mix' : undefined
}

/** EMQX's texts for each of those (emqx_dashboard_admin). */
export const PASSWORD_MESSAGES: Record<PasswordIssue, string> = {
  length: 'The range of password length is 8~64',
  ascii: 'Only ascii characters are allowed in the password',
  mix:
    'Bad password. At least two different kind of characters from groups of letters, numbers, and special characters. ' +
    'For example, if password is composed from letters, it must contain at least one number or a special character.',
}

export const USER_ERRORS = {
  undefinedCredentials: { status: 400, code: 'BAD_REQUEST', message: 'Username or password undefined' },
  badUsername: { status: 400, code: 'BAD_REQUEST', message: 'Bad Username. Only upper and lower case letters, numbers and underscores are supported' },
  exists: { status: 400, code: 'BAD_REQUEST', message: 'username_already_exists' },
  badRole: { status: 400, code: 'BAD_REQUEST', message: 'Role does not exist' },
  notFound: { status: 404, code: 'USER_NOT_FOUND', message: 'username_not_found' },
  deleteSelf: { status: 400, code: 'NOT_ALLOWED', message: 'Cannot delete self' },
} as const

/** EMQX prints the name as an Erlang binary: `Cannot delete user <<"admin">>`. */
export const cannotDeleteDefault = (username: string) => ({ status: 400, code: 'NOT_ALLOWED', message: `Cannot delete user <<"${username}">>` }) as const
