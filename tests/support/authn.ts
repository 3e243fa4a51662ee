// Helpers of the authentication tests: the CONNACK code a real mqtt.js client is refused with.
import type { IClientOptions } from 'mqtt'
import type { TestServer } from './server.ts'

/** Connects and ends the client; resolves 0 when accepted, else the refusal's reason code (v5) or return code (v3). */
export async function connackCode(t: TestServer, options: IClientOptions): Promise<number> {
  try {
    const client = await t.connect(options)
    await client.endAsync(true)
    return 0
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'number') return code
    throw error
  }
}
