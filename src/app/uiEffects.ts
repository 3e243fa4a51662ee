// The browser effects commands may ask for (commands/define.ts UiEffects): navigation, settings, logout.
import { useRouter } from '@tanstack/react-router'
import { useStore } from 'jotai'
import { useMemo } from 'react'
import type { UiEffects } from '../../commands/define.ts'
import { loggingOutAtom, sessionAtom } from '../state/session.ts'
import { saveSetting, type SettingValues } from '../state/settings.ts'
import { notify } from '../state/notifications.ts'
import { useApi } from './useApi.ts'
import { shortcutSheetOpenAtom } from './help/ShortcutSheet.tsx'
import { historyEffects } from './palette/request.ts'
import { loadTestClient } from '../features/websocket/host.ts'

export function useUiEffects(): UiEffects {
  const router = useRouter()
  const store = useStore()
  const api = useApi()

  return useMemo<UiEffects>(
    () => ({
      navigate(to: string) {
        void router.navigate({ href: to })
      },
      setSetting<K extends keyof SettingValues>(key: K, value: SettingValues[K]) {
        saveSetting(key, value)
      },
      async logout() {
        const session = store.get(sessionAtom)
        store.set(loggingOutAtom, true)
        try {
          // An expired or failed logout call changes nothing for the user: the session ends here anyway.
          if (session) await api.login.logout(session.username).catch(() => undefined)
        } finally {
          store.set(sessionAtom, null)
          store.set(loggingOutAtom, false)
        }
        notify(store, { kind: 'success', text: { key: 'session.loggedOut' } })
        await router.navigate({ to: '/login', replace: true })
      },
      showShortcuts() {
        store.set(shortcutSheetOpenAtom, true)
      },
      history: historyEffects(store),
      testClient: () => loadTestClient(store),
      saveFile(filename: string, data: Blob) {
        const url = URL.createObjectURL(data)
        const link = Object.assign(document.createElement('a'), { href: url, download: filename })
        link.click()
        // The click has handed the file to the browser; the URL is no longer needed after this turn.
        setTimeout(() => URL.revokeObjectURL(url), 1000)
      },
    }),
    [router, store, api],
  )
}
