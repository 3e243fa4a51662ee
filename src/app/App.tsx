// The app root: one jotai store, one API client, the router, and the theme kept in sync with settings.
import { RouterProvider } from '@tanstack/react-router'
import { Provider as JotaiProvider, useAtomValue } from 'jotai'
import type { Store } from 'jotai'
import { useEffect } from 'react'
import type { Api } from '../api/index.ts'
import type { AppRouter } from '../routes/router.tsx'
import { effectiveTheme, settingsAtom, type Settings } from '../state/settings.ts'
import { ApiContext } from './useApi.ts'

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

export function App({ store, api, router }: { store: Store; api: Api; router: AppRouter }) {
  return (
    <JotaiProvider store={store}>
      <ApiContext value={api}>
        <ThemeSync />
        <RouterProvider router={router} />
      </ApiContext>
    </JotaiProvider>
  )
}
