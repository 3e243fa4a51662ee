// The app root: one jotai store, one HTTP client, the router, and the theme kept in sync with settings.
import { RouterProvider } from '@tanstack/react-router'
import { Provider as JotaiProvider, useAtomValue } from 'jotai'
import type { Store } from 'jotai'
import { useEffect } from 'react'
import type { Http } from '../api/http.ts'
import type { AppRouter } from '../routes/router.tsx'
import { effectiveTheme, settingsAtom, type Settings } from '../state/settings.ts'
import { HttpContext } from './useApi.ts'

const darkQuery = '(prefers-color-scheme: dark)'

/** Sets <html data-theme>; with syncOsTheme the OS preference decides. */
export function applyTheme(settings: Settings): void {
  const osDark = typeof matchMedia === 'function' && matchMedia(darkQuery).matches
  document.documentElement.dataset.theme = effectiveTheme(settings, osDark)
}

function ThemeSync() {
  const settings = useAtomValue(settingsAtom)
  useEffect(() => {
    applyTheme(settings)
    if (!settings.syncOsTheme || typeof matchMedia !== 'function') return
    const query = matchMedia(darkQuery)
    const onChange = () => applyTheme(settings)
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  }, [settings])
  return null
}

export function App({ store, http, router }: { store: Store; http: Http; router: AppRouter }) {
  return (
    <JotaiProvider store={store}>
      <HttpContext value={http}>
        <ThemeSync />
        <RouterProvider router={router} />
      </HttpContext>
    </JotaiProvider>
  )
}
