// The configured sources in order, each with its status and metrics (GET .../{type}/status); a
// source whose status cannot be read still shows, without numbers.
import type { AuthzSourceRead } from '../../api/authz.ts'
import type { SourceStatus } from '../../../contract/authz.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'

export interface SourceRow {
  source: AuthzSourceRead
  status: SourceStatus | null
}

export function useAuthzSources() {
  const api = useApi()
  return useServerData<SourceRow[]>(
    ['authz'],
    async (signal) => {
      const sources = await api.authz.sources(signal)
      return Promise.all(sources.map(async (source) => ({ source, status: await api.authz.status(source.type, signal).catch(() => null) })))
    },
    [api],
  )
}
