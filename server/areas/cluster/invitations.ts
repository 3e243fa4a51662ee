// The async invitations of /cluster/:node/invite_async, kept as EMQX's coordinator keeps them: a
// task per node while it runs, then its outcome in the history until the node is invited again.
// The embedded server cannot reach an Erlang node, so every task ends as EMQX's does for a node it
// cannot reach, on the next turn of the event loop (an RPC to a down node fails at once).
import { ASYNC_NODEDOWN_REASON, type InvitationStatus } from '../../../contract/cluster.ts'
import { rfc3339 } from '../../http/time.ts'

interface Task {
  startedAt: number
  finishedAt?: number
  reason?: string
}

export class Invitations {
  private readonly tasks = new Map<string, Task>()
  private readonly timers = new Set<NodeJS.Timeout>()

  /** False when a task for this node is still running. */
  invite(node: string): boolean {
    const running = this.tasks.get(node)
    if (running && running.finishedAt === undefined) return false
    const task: Task = { startedAt: Date.now() }
    this.tasks.set(node, task)
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      task.finishedAt = Date.now()
      task.reason = ASYNC_NODEDOWN_REASON
    }, 0)
    this.timers.add(timer)
    return true
  }

  status(): InvitationStatus {
    const status: InvitationStatus = { succeed: [], in_progress: [], failed: [] }
    for (const [node, task] of this.tasks) {
      const started_at = rfc3339(task.startedAt)
      if (task.finishedAt === undefined) status.in_progress.push({ node, started_at })
      else status.failed.push({ node, started_at, finished_at: rfc3339(task.finishedAt), reason: task.reason ?? '' })
    }
    return status
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
  }
}
