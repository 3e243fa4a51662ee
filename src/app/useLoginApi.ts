import { useMemo } from 'react'
import { loginApi } from '../api/login.ts'
import { useHttp } from './useApi.ts'

/** The login area's client (log in, change the password), all /login needs of the API. */
export function useLoginApi(): ReturnType<typeof loginApi> {
  const http = useHttp()
  return useMemo(() => loginApi(http), [http])
}
