// Dashboard users: login and logout, the user list and password changes (EMQX v5 /login, /logout, /users).
import * as v from 'valibot'
import type { Http } from './http.ts'

export const loginResponseSchema = v.object({
  token: v.string(),
  version: v.optional(v.string(), ''),
  /** `ee` for enterprise; `ce` (EMQX 5.8) or `opensource` (older answers) for community. */
  license: v.object({ edition: v.string() }),
  role: v.optional(v.string()),
})
export type LoginResponse = v.InferOutput<typeof loginResponseSchema>

export const dashboardUserSchema = v.object({
  username: v.string(),
  description: v.optional(v.string(), ''),
  role: v.optional(v.string()),
})
export type DashboardUser = v.InferOutput<typeof dashboardUserSchema>

export interface LoginRequest {
  username: string
  password: string
}

export interface ChangePasswordRequest {
  old_pwd: string
  new_pwd: string
}

export function loginApi(http: Http) {
  return {
    login(body: LoginRequest): Promise<LoginResponse> {
      return http.send('post', 'login', loginResponseSchema, body)
    },
    logout(username: string): Promise<void> {
      return http.send('post', 'logout', null, { username })
    },
    listUsers(): Promise<DashboardUser[]> {
      return http.get('users', v.array(dashboardUserSchema))
    },
    changePassword(username: string, body: ChangePasswordRequest): Promise<void> {
      return http.send('post', `users/${encodeURIComponent(username)}/change_pwd`, null, body)
    },
  }
}
