// The node's VM figures under the names of EMQX's emqx_mgmt:vm_stats/0, for the Prometheus and
// OpenTelemetry exports. CPU use is over the time since the previous reading (EMQX's cpu_sup
// utilisation); the Erlang-only queues (run queue, mnesia and broker pool mailboxes) have no
// counterpart in one Node process and read 0.
import { cpus, freemem, totalmem } from 'node:os'

/** Busy and total CPU time of the whole machine so far, to compare between two checks. */
export function cpuTimes(): { busy: number; total: number } {
  let busy = 0
  let total = 0
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle
    total += all
    busy += all - times.idle
  }
  return { busy, total }
}

export const VM_STAT_NAMES = [
  'cpu_use',
  'cpu_idle',
  'run_queue',
  'mnesia_tm_mailbox_size',
  'broker_pool_max_mailbox_size',
  'total_memory',
  'used_memory',
] as const
export type VmStatName = (typeof VM_STAT_NAMES)[number]

/** Reads the VM figures; each reader keeps its own previous CPU times. */
export class VmStats {
  private last = cpuTimes()
  private lastUse = 0

  read(): Record<VmStatName, number> {
    const now = cpuTimes()
    const total = now.total - this.last.total
    // Two readings in the same clock tick: keep the previous figure rather than divide by zero.
    if (total > 0) {
      this.lastUse = Math.floor(((now.busy - this.last.busy) / total) * 10_000) / 100
      this.last = now
    }
    const memTotal = totalmem()
    return {
      cpu_use: this.lastUse,
      cpu_idle: Math.ceil((100 - this.lastUse) * 100) / 100,
      run_queue: 0,
      mnesia_tm_mailbox_size: 0,
      broker_pool_max_mailbox_size: 0,
      total_memory: memTotal,
      used_memory: memTotal - freemem(),
    }
  }
}
