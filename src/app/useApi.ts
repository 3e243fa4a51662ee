// The one HTTP client, handed down from main.tsx, and the API client built on it: the login page
// builds only the login area's client (useLoginApi), the authenticated shell every area's
// (src/app/layout/shellApi.ts), so /login does not load every area's client and schemas.
// Screens and commands never build their own.
import { createContext, use } from 'react'
import type { Http } from '../api/http.ts'
import type { Api } from '../api/index.ts'

export const HttpContext = createContext<Http | null>(null)

export const ApiContext = createContext<Api | null>(null)

export function useHttp(): Http {
  const http = use(HttpContext)
  if (!http) throw new Error('useHttp() outside <HttpContext>')
  return http
}

export function useApi(): Api {
  const api = use(ApiContext)
  if (!api) throw new Error('useApi() outside <ApiContext>')
  return api
}
