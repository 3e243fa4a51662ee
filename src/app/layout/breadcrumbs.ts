// Where you are, as the header shows it: the menu group (and sub-group) a page sits in, the screen,
// and on a detail page the screen it belongs to, its title and the id it shows. Built from the
// menu data in commands/routes.ts, so the trail always follows the left menu. Pure: i18n keys in,
// the header translates.
import { menu, screens, type MenuItem, type Screen } from '../../../commands/routes.ts'
import { isItemActive } from './Menu.tsx'

export interface Crumb {
  /** An i18n key, or the id itself when `id` is set. */
  label: string
  /** A link to the screen, for a detail page's parent. */
  to?: string
  /** A detail page's id (a client id, a node name): shown in full on hover, shortened if long. */
  id?: boolean
}

function menuPlace(pathname: string): { titles: string[]; item: MenuItem } | null {
  for (const group of menu)
    for (const entry of group.items) {
      if ('screen' in entry) {
        if (isItemActive(entry, pathname)) return { titles: [group.title], item: entry }
        continue
      }
      for (const item of entry.items) if (isItemActive(item, pathname)) return { titles: [group.title, entry.title], item }
    }
  return null
}

function under(pathname: string, path: string): boolean {
  return pathname === path || pathname.startsWith(`${path}/`)
}

/** The screen a path shows or sits under (the longest screen path that is a prefix of it). */
function screenOf(pathname: string): Screen | undefined {
  let best: Screen | undefined
  for (const screen of screens) if (under(pathname, screen.path) && screen.path.length > (best?.path.length ?? 0)) best = screen
  return best
}

/**
 * The trail for a path: `Monitoring › Clients` on a list, `Cluster Overview › Metrics` on a screen
 * that shares its menu entry with others (it is not under Overview), and
 * `Monitoring › Clients › Client › sensor-1` on a detail page.
 */
export function breadcrumbTrail(pathname: string, leafTitle: string | undefined, params: readonly string[]): Crumb[] {
  const place = menuPlace(pathname)
  const crumbs: Crumb[] = place ? place.titles.map((label) => ({ label })) : []
  const screen = screenOf(pathname) ?? screens.find((s) => s.id === place?.item.screen)
  if (screen && screen.path === pathname) crumbs.push({ label: screen.title })
  else {
    if (screen && screen.title !== leafTitle) crumbs.push({ label: screen.title, to: screen.path })
    if (leafTitle) crumbs.push({ label: leafTitle })
  }
  const shown = params.filter(Boolean)
  if (shown.length) crumbs.push({ label: shown.join(' / '), id: true })
  return crumbs
}

/** A long id cut in the middle, keeping its start and end (where ids usually differ): `sensor-0001…f3a9`. */
export function shortenMiddle(text: string, max = 32): string {
  const chars = [...text]
  if (chars.length <= max) return text
  const tail = Math.floor((max - 1) / 3)
  const head = max - 1 - tail
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`
}
