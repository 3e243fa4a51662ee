// The router tree, generated from the spec's route table in commands/routes.ts. /login is the only
// public route; everything else sits under one protected layout whose beforeLoad is the auth guard.
import { createRootRouteWithContext, createRoute, createRouter, Outlet, redirect } from '@tanstack/react-router'
import type { AnyRoute, RouteComponent } from '@tanstack/react-router'
import { detailPaths, redirects, screens } from '../../commands/routes.ts'
import type { Api } from '../api/index.ts'
import type { SessionReader } from '../state/session.ts'
import { Layout } from '../app/layout/Layout.tsx'
import { LoginPage } from '../features/auth/LoginPage.tsx'
import { SettingsPage } from '../features/settings/SettingsPage.tsx'
import { ClientList } from '../features/clients/ClientList.tsx'
import { ClientDetail } from '../features/clients/ClientDetail.tsx'
import { NotBuilt } from '../ui/NotBuilt.tsx'
import { NotFound } from '../ui/NotFound.tsx'
import { Notifications } from '../ui/Notifications.tsx'
import { safeRedirectTarget } from './redirectTarget.ts'

declare module '@tanstack/router-core' {
  interface StaticDataRouteOption {
    /** i18n key of the screen's title, shown in the header. */
    title?: string
  }
}

/** What every route's beforeLoad and loader receive (TanStack authenticated-routes pattern). */
export interface RouterContext {
  api: Api
  session: SessionReader
}

/** Screens built in this release, by path; the rest render the "not built yet" notice. */
const builtScreens: Record<string, RouteComponent> = {
  '/clients/list': ClientList,
  '/clients/detail/$clientId': ClientDetail,
  '/settings': SettingsPage,
}

function screenComponent(path: string, title: string, built: boolean | undefined): RouteComponent {
  const component = built ? builtScreens[path] : undefined
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

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
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

/** The protected tree: the auth guard lives here and nowhere else. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: ({ context, location }) => {
    if (!context.session.current()) throw redirect({ to: '/login', search: { to: location.href }, replace: true })
  },
  component: Layout,
  notFoundComponent: NotFound,
})

const redirectRoutes: AnyRoute[] = Object.keys(redirects).map((from) =>
  createRoute({
    getParentRoute: () => appRoute,
    path: from,
    beforeLoad: () => {
      throw redirect({ to: finalRedirect(from), replace: true })
    },
  }),
)

const screenRoutes: AnyRoute[] = [...screens, ...detailPaths].map((screen) =>
  createRoute({
    getParentRoute: () => appRoute,
    path: screen.path,
    staticData: { title: screen.title },
    component: screenComponent(screen.path, screen.title, screen.built),
  }),
)

export const routeTree = rootRoute.addChildren([loginRoute, appRoute.addChildren([...redirectRoutes, ...screenRoutes])])

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: false,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFound,
  })
}

export type AppRouter = ReturnType<typeof createAppRouter>
