// What an action driver's send reports it rendered (its QUERY_RENDER result), the send stopped right
// there as a rule test with stop_action_after_template_rendering stops it: nothing reaches the target.
import type { ActionDriver } from '../../server/integration/driver.ts'
import type { TraceFields } from '../../server/trace/event.ts'

class Stopped extends Error {}

/** The results the send reported before it was stopped; it must report before sending, or this fails. */
export async function renderedBy<Conn, Prepared>(driver: ActionDriver<Conn, Prepared>, conn: Conn, prepared: Prepared, batch: ReadonlyArray<Record<string, unknown>>, actionId = `action:${driver.type}:a:connector:${driver.connectorType}:c`): Promise<TraceFields> {
  const reported: TraceFields[] = []
  const trace = {
    actionId,
    async: true,
    rendered(result: TraceFields) {
      reported.push(result)
      throw new Stopped()
    },
  }
  const error = await driver.send(conn, prepared, batch, { timeoutMs: 5_000, signal: new AbortController().signal, trace }).then(
    () => new Error('the send went on without reporting what it rendered'),
    (thrown: unknown) => thrown,
  )
  if (!(error instanceof Stopped)) throw error
  return reported[0]
}

/** For a driver that renders before it touches its connection (Kafka, MongoDB) and a test without its server. */
export const UNTOUCHED_CONNECTION = undefined as never
