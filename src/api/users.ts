// Dashboard users (EMQX /users): list, create, change the description, delete. Login, logout and
// password changes are in auth.ts. The schemas are the contract's (contract/users.ts).
import * as v from 'valibot'
import { userSchema, type DashboardUser } from '../../contract/users.ts'
import { pathSegment } from './clients.ts'
import type { Http } from './http.ts'

export interface NewUser {
  username: string
  password: string
  description?: string
}

export function usersApi(http: Http) {
  const path = (username: string) => `users/${pathSegment(username)}`
  const list = (signal?: AbortSignal): Promise<DashboardUser[]> => http.get('users', v.array(userSchema), undefined, signal)
  return {
    list,
    /** 400 BAD_REQUEST for a taken or malformed name or a weak password. */
    create(user: NewUser): Promise<DashboardUser> {
      return http.send('post', 'users', userSchema, user)
    },
    /** 404 USER_NOT_FOUND when there is no such user. */
    update(username: string, description: string): Promise<DashboardUser> {
      return http.send('put', path(username), userSchema, { description })
    },
    /** 400 NOT_ALLOWED for the default user or yourself; the user's logins end. */
    delete(username: string): Promise<void> {
      return http.send('delete', path(username), null)
    },
    /** Up to 10 usernames containing `query`, for completion. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const users = await list(signal)
      return users.map((user) => user.username).filter((name) => name.includes(query.trim())).slice(0, 10)
    },
  }
}

export type UsersApi = ReturnType<typeof usersApi>
