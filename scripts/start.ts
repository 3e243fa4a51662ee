// `npm start`: build the console if needed, then run the server (embedded, or proxy with EMQX_API_URL).
import { ensureBuilt } from './ensure-built.ts'

ensureBuilt()
await import('../server/main.ts')
