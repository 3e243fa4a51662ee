// `npm run dev`: the server (API + broker) on PORT, and Vite with hot reload in front of it on 5173.
import { spawn, type ChildProcess } from 'node:child_process'

const root = new URL('..', import.meta.url).pathname
const children: ChildProcess[] = [
  spawn(process.execPath, [...process.execArgv, 'server/main.ts'], { cwd: root, stdio: 'inherit', env: process.env }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { cwd: root, stdio: 'inherit', env: process.env }),
]

function stop(code: number): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  process.exitCode = code
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0))
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))
