// A worker thread of bcrypt-pool.ts: hashes and compares with bcryptjs off the broker's event loop.
import { parentPort } from 'node:worker_threads'
import bcrypt from 'bcryptjs'

export type BcryptTask = { id: number; op: 'compare'; password: string; hash: string } | { id: number; op: 'hash'; password: string; rounds: number }
export type BcryptAnswer = { id: number; ok: true; value: boolean | string } | { id: number; ok: false; error: string }

parentPort?.on('message', (task: BcryptTask) => {
  try {
    const value = task.op === 'compare' ? bcrypt.compareSync(task.password, task.hash) : bcrypt.hashSync(task.password, task.rounds)
    parentPort!.postMessage({ id: task.id, ok: true, value } satisfies BcryptAnswer)
  } catch (error) {
    parentPort!.postMessage({ id: task.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies BcryptAnswer)
  }
})
