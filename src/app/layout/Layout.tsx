// The authenticated shell: menu on the left, header on top, the screen scrolling above the
// terminal dock, and the palette over everything.
import { Outlet } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { useDeepLink } from '../deeplink.ts'
import { ApiContext, useHttp } from '../useApi.ts'
import { PaletteHost } from '../palette/PaletteHost.tsx'
import { TerminalDock } from '../terminal/TerminalDock.tsx'
import { Header } from './Header.tsx'
import { Menu } from './Menu.tsx'
import { shellApi } from './shellApi.ts'
import '../../styles/layout.css'

/** `children` replaces the matched screen (the not-found page of a logged-in user). */
export function Layout({ children }: { children?: ReactNode }) {
  return (
    <ApiContext value={shellApi(useHttp())}>
      <Shell>{children}</Shell>
    </ApiContext>
  )
}

function Shell({ children }: { children?: ReactNode }) {
  useDeepLink()
  return (
    <div className="shell">
      <Menu />
      <div className="shell-main">
        <Header />
        <main className="shell-content" id="main-content">
          {children ?? <Outlet />}
        </main>
        <TerminalDock />
      </div>
      <PaletteHost />
    </div>
  )
}
