// Dashboard users: login and logout, the user list and password changes (EMQX v5 /login, /logout, /users).
import * as v from 'valibot'
import type { Http } from './http.ts'
import { loginResponseSchema, type LoginRequest, type LoginResponse } from '../../contract/login.ts'
import { ChangePasswordBody, userSchema, type DashboardUser } from '../../contract/users.ts'

export { loginResponseSchema, type DashboardUser, type LoginRequest, type LoginResponse }
export type ChangePasswordRequest = v.InferOutput<typeof ChangePasswordBody>

export function loginApi(http: Http) {
  return {
    login(body: LoginRequest): Promise<LoginResponse> {
      return http.send('post', 'login', loginResponseSchema, body)
    },
    logout(username: string): Promise<void> {
      return http.send('post', 'logout', null, { username })
    },
    listUsers(): Promise<DashboardUser[]> {
      return http.get('users', v.array(userSchema))
    },
    changePassword(username: string, body: ChangePasswordRequest): Promise<void> {
      return http.send('post', `users/${encodeURIComponent(username)}/change_pwd`, null, body)
    },
  }
}
