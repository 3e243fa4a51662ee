// Start-up: settings and theme first (no flash of the wrong theme), then one store, one HTTP client, one router;
// the first render waits for the language's strings (no flash of untranslated keys).
import { createStore } from 'jotai'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createHttp, type Credentials } from './api/http.ts'
import { App, applyTheme } from './app/App.tsx'
import { initI18n } from './app/i18n.ts'
import { createAppRouter } from './routes/router.tsx'
import { loggingOutAtom, sessionAtom, sessionReader } from './state/session.ts'
import { settingsAtom } from './state/settings.ts'
import { notify } from './state/notifications.ts'
import './styles/base.css'
import './styles/pages.css'

const store = createStore()
const settings = store.get(settingsAtom)
applyTheme(settings)
const i18nReady = initI18n(settings.lang)

const http = createHttp({
  origin: '',
  credentials: (): Credentials => {
    const session = store.get(sessionAtom)
    return session ? { kind: 'token', token: session.token } : { kind: 'none' }
  },
  onUnauthorized: () => expireSession(),
})
const router = createAppRouter({ http, session: sessionReader(store) })

/** A 401 from any call: end the session once, say why, and go to /login remembering where we were. */
function expireSession(): void {
  if (store.get(loggingOutAtom)) return
  const hadSession = store.get(sessionAtom) !== null
  store.set(sessionAtom, null)
  if (hadSession) notify(store, { kind: 'error', text: { key: 'common.loginExpired' } })
  const location = router.state.location
  if (location.pathname !== '/login')
    void router.navigate({ to: '/login', search: { to: location.href }, replace: true })
}

await i18nReady
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} http={http} router={router} />
  </StrictMode>,
)
