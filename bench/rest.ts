// The REST API of a broker the benches started (bench/broker-process.ts), logged in as the default
// admin, so that cases are set up as an operator would: answers the parsed JSON body, throws on an error.
import type { Target } from './broker-targets.ts'

export async function restOf(target: Pick<Target, 'httpPort'>) {
  const base = `http://127.0.0.1:${target.httpPort}/api/v5`
  const login = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'public' }) })
  const { token } = (await login.json()) as { token: string }
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
}

export type Rest = Awaited<ReturnType<typeof restOf>>
