// Deep links: `?cmd=<id>&<arg>=<value>…` opens the palette on that command's form filled in, and
// `?script=<url-encoded lines>` opens the script view. A link never runs anything: the operator
// reads the form and presses Enter, and dangerous commands still ask. The parameters are removed
// from the address once taken, so a reload or a shared screen link does not open it again.
import { useRouter, useRouterState } from '@tanstack/react-router'
import { useStore } from 'jotai'
import { useEffect, useRef } from 'react'
import { getCommand } from '../../commands/registry.ts'
import { notify } from '../state/notifications.ts'
import { paletteRequestAtom } from './palette/request.ts'

export type DeepLink = { kind: 'command'; id: string; values: Record<string, string> } | { kind: 'script'; text: string }

/**
 * Reads a deep link from a query string, decoded as the router and browsers encode queries (a `+`
 * is a space, so a relative time is written `until=%2B1h`). With `cmd`, every other parameter is
 * one of its arguments (as the link format says); with `script`, only `script` is taken. `rest` is
 * the query string without what was taken ('' or '?…').
 */
export function parseDeepLink(search: string): { link: DeepLink | null; rest: string } {
  const params = new URLSearchParams(search)
  const id = params.get('cmd')
  if (id !== null) {
    const values: Record<string, string> = {}
    for (const [name, value] of params)
      if (name !== 'cmd' && name !== '__proto__' && !Object.hasOwn(values, name)) values[name] = value
    return { link: { kind: 'command', id: id.trim(), values }, rest: '' }
  }
  const script = params.get('script')
  if (script !== null) {
    params.delete('script')
    const rest = params.toString()
    return { link: { kind: 'script', text: script.replace(/\r\n?/g, '\n') }, rest: rest ? `?${rest}` : '' }
  }
  return { link: null, rest: search }
}

/** Mounted once in the shell: takes a deep link from the address whenever one arrives. */
export function useDeepLink(): void {
  const router = useRouter()
  const store = useStore()
  const href = useRouterState({ select: (state) => state.location.href })
  // The address changes again while the link's parameters are being removed; take each link once.
  const taken = useRef<string | null>(null)

  useEffect(() => {
    const search = window.location.search
    const { link, rest } = parseDeepLink(search)
    if (!link) {
      taken.current = null
      return
    }
    if (taken.current === search) return
    taken.current = search
    void router.navigate({ href: `${window.location.pathname}${rest}${window.location.hash}`, replace: true })
    if (link.kind === 'script') {
      store.set(paletteRequestAtom, { kind: 'script', text: link.text })
      return
    }
    const command = getCommand(link.id)
    if (!command) {
      notify(store, { kind: 'error', text: { key: 'deeplink.unknownCommand', values: { id: link.id } } })
      return
    }
    store.set(paletteRequestAtom, { kind: 'form', command, values: link.values })
    notify(store, { kind: 'info', text: { key: 'deeplink.opened' } })
  }, [href, router, store])
}
