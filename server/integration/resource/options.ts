// resource_opts (defaults filled in by the contract) read into the timings the resources run on.
import { resumeIntervalMs, UNBATCHED_ACTION_TYPES, type ActionResourceOpts, type ConnectorResourceOpts } from '../../../contract/connectors.ts'
import { parseSize } from '../../../contract/units.ts'
import type { ActionTiming } from './action-resource.ts'
import type { ConnectorTiming } from './connector-resource.ts'
import { durationMs } from './timing.ts'

export function connectorTiming(opts: ConnectorResourceOpts): ConnectorTiming {
  return { healthCheckMs: durationMs(opts.health_check_interval) ?? 15_000, startTimeoutMs: durationMs(opts.start_timeout) ?? 5_000 }
}

export function actionTiming(type: string, opts: ActionResourceOpts): ActionTiming {
  const batched = !UNBATCHED_ACTION_TYPES.has(type)
  const sync = opts.query_mode === 'sync'
  return {
    batchSize: batched ? opts.batch_size : 1,
    batchTimeMs: batched ? (durationMs(opts.batch_time) ?? 0) : 0,
    workers: opts.worker_pool_size,
    inflightWindow: sync ? 1 : opts.inflight_window,
    requestTtlMs: durationMs(opts.request_ttl),
    maxBufferBytes: parseSize(opts.max_buffer_bytes) ?? 256 * 1024 * 1024,
    resumeIntervalMs: resumeIntervalMs(opts),
    sync,
    healthCheckMs: durationMs(opts.health_check_interval) ?? 15_000,
  }
}
