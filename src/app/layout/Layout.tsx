// The authenticated shell: menu on the left, header on top, the screen scrolling above the
// terminal dock, and the palette over everything.
import { Outlet } from '@tanstack/react-router'
import { PaletteHost } from '../palette/PaletteHost.tsx'
import { TerminalDock } from '../terminal/TerminalDock.tsx'
import { Header } from './Header.tsx'
import { Menu } from './Menu.tsx'

export function Layout() {
  return (
    <div className="shell">
      <Menu />
      <div className="shell-main">
        <Header />
        <main className="shell-content" id="main-content">
          <Outlet />
        </main>
        <TerminalDock />
      </div>
      <PaletteHost />
    </div>
  )
}
