// The CLI's API client: the same createHttp/createApi the browser uses, pointed at a console or an
// EMQX, with a login token or an API key.
import { createApi, type Api } from '../src/api/index.ts'
import { createHttp, type Credentials } from '../src/api/http.ts'

export interface ConnectOptions {
  url: string
  username?: string
  password?: string
  apiKey?: string
  apiSecret?: string
}

/**
 * The origin createHttp wants from what an operator types: a console or EMQX base URL, with or
 * without `/api/v5` and trailing slashes. A URL without a scheme gets `http://`.
 */
export function normalizeUrl(url: string): string {
  let text = url.trim()
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `http://${text}`
  const parsed = new URL(text)
  let path = parsed.pathname.replace(/\/+$/, '')
  if (path.endsWith('/api/v5')) path = path.slice(0, -'/api/v5'.length)
  return `${parsed.origin}${path}`
}

export type CredentialChoice = { kind: 'login'; username: string; password: string } | { kind: 'apiKey'; key: string; secret: string }

/** Which credentials were given, or what is missing (an English sentence for a usage error). */
export function chooseCredentials(options: Omit<ConnectOptions, 'url'>): CredentialChoice | { error: string } {
  const { username, password, apiKey, apiSecret } = options
  if (apiKey !== undefined || apiSecret !== undefined) {
    if (!apiKey || !apiSecret) return { error: '--api-key and --api-secret go together' }
    return { kind: 'apiKey', key: apiKey, secret: apiSecret }
  }
  if (username !== undefined || password !== undefined) {
    if (!username || password === undefined) return { error: '--username and --password go together' }
    return { kind: 'login', username, password }
  }
  return { error: 'credentials needed: --username/--password or --api-key/--api-secret (or EMQX_API_KEY/EMQX_API_SECRET)' }
}

/** An Api ready to call: logged in when given a user, else sending the API key on every request. */
export async function connect(url: string, choice: CredentialChoice): Promise<Api> {
  let credentials: Credentials =
    choice.kind === 'apiKey' ? { kind: 'apiKey', key: choice.key, secret: choice.secret } : { kind: 'none' }
  const api = createApi(createHttp({ origin: normalizeUrl(url), credentials: () => credentials }))
  if (choice.kind === 'login') {
    const { token } = await api.login.login({ username: choice.username, password: choice.password })
    credentials = { kind: 'token', token }
  }
  return api
}
