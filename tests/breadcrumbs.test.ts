// The header's trail follows the left menu's groups; detail pages name their id, shortened when long.
import { describe, expect, it } from 'vitest'
import { breadcrumbTrail, shortenMiddle } from '../src/app/layout/breadcrumbs.ts'

const labels = (pathname: string, title?: string, params: string[] = []) =>
  breadcrumbTrail(pathname, title, params).map((crumb) => (crumb.to ? `${crumb.label}->${crumb.to}` : crumb.label))

describe('breadcrumbs', () => {
  it('put a screen under its menu group, not under the screen whose menu entry it shares', () => {
    expect(labels('/dashboard/metrics', 'nav.metrics')).toEqual(['menu.clusterOverview', 'nav.metrics'])
    expect(labels('/dashboard/nodes', 'nav.nodes')).toEqual(['menu.clusterOverview', 'nav.nodes'])
    expect(labels('/dashboard/overview', 'nav.overview')).toEqual(['menu.clusterOverview', 'nav.overview'])
    expect(labels('/subscriptions/topics', 'nav.topics')).toEqual(['menu.monitoring', 'nav.topics'])
  })

  it('name the sub-group of a nested menu entry', () => {
    expect(labels('/topic-rewrite', 'nav.topicRewrite')).toEqual(['menu.systemSettings', 'menu.advancedMqtt', 'nav.topicRewrite'])
  })

  it('link a detail page to its list and end with the id it shows', () => {
    expect(labels('/clients/detail/sensor-1', 'nav.clientDetail', ['sensor-1'])).toEqual([
      'menu.monitoring',
      'nav.clients->/clients/list',
      'nav.clientDetail',
      'sensor-1',
    ])
    expect(labels('/dashboard/nodes/emqx@127.0.0.1', 'nav.nodeDetail', ['emqx@127.0.0.1'])).toEqual([
      'menu.clusterOverview',
      'nav.nodes->/dashboard/nodes',
      'nav.nodeDetail',
      'emqx@127.0.0.1',
    ])
    expect(breadcrumbTrail('/clients/detail/sensor-1', 'nav.clientDetail', ['sensor-1']).at(-1)).toEqual({ label: 'sensor-1', id: true })
  })

  it('show a screen outside the menu on its own', () => {
    expect(labels('/settings', 'nav.settings')).toEqual(['nav.settings'])
  })

  it('shorten a long id in the middle, keeping its start and end', () => {
    const id = `sensor-${'x'.repeat(180)}-f3a9`
    const short = shortenMiddle(id)
    expect([...short]).toHaveLength(32)
    expect(short.startsWith('sensor-')).toBe(true)
    expect(short.endsWith('-f3a9')).toBe(true)
    expect(short).toContain('…')
    expect(shortenMiddle('sensor-1')).toBe('sensor-1')
    expect(shortenMiddle('客户端'.repeat(20), 10)).toBe('客户端客户端…客户端')
  })
})
