// A trace made and its log read through the REST API, as the console does it: created with a start
// of now and an end ten minutes on, read page by page by byte position until `items` is empty.
import { expect } from 'vitest'
import { waitFor, type Api } from './server.ts'

export const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString()

export async function createTrace(api: Api, body: Record<string, unknown>) {
  const response = await api.post('/trace', { start_at: new Date().toISOString(), end_at: inMinutes(10), ...body })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body
}

/** Reads a trace's whole log by position, `bytes` at a time, as the console pages it. */
export async function readLog(api: Api, name: string, bytes = 100_000): Promise<string> {
  let position = 0
  let text = ''
  for (;;) {
    const page = await api.get(`/trace/${name}/log?position=${position}&bytes=${bytes}`)
    expect(page.status).toBe(200)
    if (page.body.items === '') {
      expect(page.body.meta.position).toBe(position)
      return text
    }
    text += page.body.items
    position = page.body.meta.position
  }
}

/** The log once it holds every needle. */
export const logContaining = (api: Api, name: string, ...needles: string[]) =>
  waitFor(async () => {
    const text = await readLog(api, name)
    return needles.every((needle) => text.includes(needle)) && text
  }, `${name} holds ${needles.join(', ')}`)
