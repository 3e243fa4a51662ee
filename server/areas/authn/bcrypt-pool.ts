// bcrypt on worker threads. bcryptjs is pure JavaScript and slow on purpose (about 50 ms a check at
// 10 rounds): on the event loop it took the broker's whole core while clients connected. The pool
// starts its threads on first use (one per core but one, at least one, at most four), hands each
// task to the thread with the fewest waiting, and lets the process exit while they idle.
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { BcryptAnswer, BcryptTask } from './bcrypt-worker.ts'

/** A task without its id (which the pool gives), kind by kind. */
type TaskBody = BcryptTask extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never

type Pending = { resolve(value: boolean | string): void; reject(error: Error): void }

interface Thread {
  worker: Worker
  waiting: number
}

const SIZE = Math.min(4, Math.max(1, availableParallelism() - 1))
const threads: Thread[] = []
const pending = new Map<number, Pending>()
let nextId = 1

function start(): Thread {
  const worker = new Worker(new URL('./bcrypt-worker.ts', import.meta.url))
  const thread: Thread = { worker, waiting: 0 }
  worker.unref()
  worker.on('message', (answer: BcryptAnswer) => {
    const task = pending.get(answer.id)
    if (!task) return
    pending.delete(answer.id)
    thread.waiting--
    if (thread.waiting === 0) worker.unref()
    if (answer.ok) task.resolve(answer.value)
    else task.reject(new Error(answer.error))
  })
  worker.on('error', () => {
    // A thread that died is replaced on the next task; what it held fails.
    threads.splice(threads.indexOf(thread), 1)
  })
  threads.push(thread)
  return thread
}

function run(task: TaskBody): Promise<boolean | string> {
  const thread = threads.length < SIZE ? start() : threads.reduce((a, b) => (b.waiting < a.waiting ? b : a))
  const id = nextId++
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject })
    // Held while it works, so a task in flight keeps the process up.
    if (thread.waiting === 0) thread.worker.ref()
    thread.waiting++
    thread.worker.postMessage({ ...task, id } as BcryptTask)
  })
}

export function bcryptCompare(password: string, hash: string): Promise<boolean> {
  return run({ op: 'compare', password, hash }) as Promise<boolean>
}

export function bcryptHash(password: string, rounds: number): Promise<string> {
  return run({ op: 'hash', password, rounds }) as Promise<string>
}
