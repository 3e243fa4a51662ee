// A second embedded server in the test process, on free ports with a throwaway data directory, for
// specs that must not disturb the shared one (locking admin, for one). It serves the built dist/.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../../server/start.ts'

export async function startOwnServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'emqx-console-e2e-own-'))
  const server = await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir })
  return {
    url: server.url,
    async close() {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
