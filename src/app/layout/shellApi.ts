// Every area's client, loaded with the shell rather than with /login, and built once over the
// root's Http so that its state (cursor pages, what the broker offers) lasts the whole session.
import type { Http } from '../../api/http.ts'
import { createApi, type Api } from '../../api/index.ts'

const built = new WeakMap<Http, Api>()

export function shellApi(http: Http): Api {
  let api = built.get(http)
  if (!api) {
    api = createApi(http)
    built.set(http, api)
  }
  return api
}
