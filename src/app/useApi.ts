// The one API client, handed down from main.tsx; screens and commands never build their own.
import { createContext, use } from 'react'
import type { Api } from '../api/index.ts'

export const ApiContext = createContext<Api | null>(null)

export function useApi(): Api {
  const api = use(ApiContext)
  if (!api) throw new Error('useApi() outside <ApiContext>')
  return api
}
