// The database drivers' connectors over server/backends: a backend is opened, checked with a real
// round trip, and given up (closed, with the driver's reason) when that fails, as EMQX's on_start
// fails when its pool cannot connect.
import type { Backend } from '../../backends/resource.ts'
import type { ResourceHealth } from '../driver.ts'

export async function openChecked<B extends Backend>(backend: B): Promise<B> {
  const health = await backend.health()
  if (health.status !== 'connected') {
    await backend.close().catch(() => {})
    throw new Error(health.reason ?? 'not connected')
  }
  return backend
}

/** A backend's health as the resource layer reads it. */
export function backendHealth(backend: Backend): Promise<ResourceHealth> {
  return backend.health()
}
