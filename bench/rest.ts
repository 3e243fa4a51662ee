// The embedded server's REST API for the benches, logged in as the default admin: each call answers
// the parsed JSON body (undefined when there is none) and throws on a status other than 2xx.
export type Rest = (method: string, path: string, body?: unknown) => Promise<unknown>

export async function restOf(target: { httpPort?: number }): Promise<Rest> {
  const base = `http://127.0.0.1:${target.httpPort}/api/v5`
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'public' }),
  })
  const { token } = (await login.json()) as { token: string }
  return async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return text ? (JSON.parse(text) as unknown) : undefined
  }
}
