// The router tree, generated from the spec's route table in commands/routes.ts and the built
// screens in ./screens.ts. /login is the only
// public route; everything else sits under one protected layout whose beforeLoad is the login guard.
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router'
import type { AnyRoute, RouteComponent } from '@tanstack/react-router'
import { useAtomValue } from 'jotai'
import { lazy, Suspense } from 'react'
import { detailPaths, redirects, screens } from '../../commands/routes.ts'
import type { Http } from '../api/http.ts'
import { loadAllLanguages } from '../app/i18n.ts'
import { sessionAtom, type SessionReader } from '../state/session.ts'
import { LoginPage } from '../features/login/LoginPage.tsx'
import { NotBuilt } from '../ui/NotBuilt.tsx'
import { NotFound } from '../ui/NotFound.tsx'
import { Notifications } from '../ui/Notifications.tsx'
import { safeRedirectTarget } from './redirectTarget.ts'
import { screenComponents } from './screens.ts'

declare module '@tanstack/router-core' {
  interface StaticDataRouteOption {
    /** i18n key of the screen's title, shown in the header. */
    title?: string
  }
}

/** What every route's beforeLoad and loader receive (TanStack authenticated-routes pattern). */
export interface RouterContext {
  http: Http
  session: SessionReader
}

/** A path's screen, or the "not built yet" notice when src/routes/screens.ts has none. */
function screenComponent(path: string, title: string): RouteComponent {
  const component = screenComponents[path]
  if (component) return component
  return function NotBuiltScreen() {
    return <NotBuilt title={title} />
  }
}

/** Follows the redirect table to its end: / -> /dashboard -> /dashboard/overview. */
export function finalRedirect(path: string): string {
  let target = path
  for (let hops = 0; hops < 10 && redirects[target]; hops++) target = redirects[target]
  return target
}

/** Notifications live at the root so 'Logged out' and 'Login has expired' still show on /login. */
function Root() {
  return (
    <>
      <Outlet />
      <Notifications />
    </>
  )
}

/** The authenticated shell's code, with every language's strings (its palette matches titles in each). */
function loadShell() {
  return Promise.all([import('../app/layout/Layout.tsx'), loadAllLanguages()]).then(([module]) => module)
}

const LazyLayout = lazy(() => loadShell().then((module) => ({ default: module.Layout })))

/** Unknown paths: inside the shell when logged in, on their own otherwise (no login needed to learn a path is wrong). */
function RootNotFound() {
  const session = useAtomValue(sessionAtom)
  if (!session) return <NotFound />
  return (
    <Suspense fallback={null}>
      <LazyLayout>
        <NotFound />
      </LazyLayout>
    </Suspense>
  )
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: RootNotFound,
})

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: (search: Record<string, unknown>): { to?: string } =>
    typeof search.to === 'string' ? { to: search.to } : {},
  beforeLoad: ({ context, search }) => {
    if (context.session.current()) throw redirect({ href: safeRedirectTarget(search.to), replace: true })
  },
  component: LoginPage,
})

/** The protected tree: the login guard lives here and nowhere else. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: ({ context, location }) => {
    if (!context.session.current()) throw redirect({ to: '/login', search: { to: location.href }, replace: true })
  },
  component: lazyRouteComponent(loadShell, 'Layout'),
})

const redirectRoutes: AnyRoute[] = Object.keys(redirects).map((from) =>
  createRoute({
    getParentRoute: () => appRoute,
    path: from,
    // The query goes along, so a deep link to `/?cmd=…` still arrives (src/app/deeplink.ts).
    beforeLoad: ({ location }) => {
      throw redirect({ href: `${finalRedirect(from)}${location.searchStr}`, replace: true })
    },
  }),
)

const screenRoutes: AnyRoute[] = [...screens, ...detailPaths].map((screen) =>
  createRoute({
    getParentRoute: () => appRoute,
    path: screen.path,
    staticData: { title: screen.title },
    component: screenComponent(screen.path, screen.title),
  }),
)

export const routeTree = rootRoute.addChildren([loginRoute, appRoute.addChildren([...redirectRoutes, ...screenRoutes])])

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: false,
    scrollRestoration: true,
    defaultNotFoundComponent: RootNotFound,
  })
}

export type AppRouter = ReturnType<typeof createAppRouter>
