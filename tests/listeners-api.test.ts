// The console's reading of GET /listeners from a two-node EMQX: each node's own figures from
// node_status, the cluster status only where a listener comes without node_status.
import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { listenerListSchema, statusOnNode } from '../src/api/listeners.ts'

// As emqx_mgmt_api_listeners lists one listener running on two nodes (extra fields kept: acceptors, number).
const body = [
  {
    id: 'tcp:default',
    type: 'tcp',
    name: 'default',
    enable: true,
    bind: '0.0.0.0:1883',
    acceptors: 16,
    number: 2,
    status: { running: true, current_connections: 501, max_connections: 'infinity' },
    node_status: [
      { node: 'emqx@10.0.0.2', status: { running: true, current_connections: 301, max_connections: 'infinity' } },
      { node: 'emqx@10.0.0.1', status: { running: true, current_connections: 200, max_connections: 'infinity' } },
    ],
  },
  {
    id: 'ssl:default',
    type: 'ssl',
    name: 'default',
    enable: true,
    bind: '0.0.0.0:8883',
    status: { running: 'inconsistent', current_connections: 7, max_connections: 2048000 },
  },
]

describe('listeners as the console reads them', () => {
  const listeners = v.parse(listenerListSchema, body)

  it('takes each node its own entry from node_status', () => {
    expect(statusOnNode(listeners[0], 'emqx@10.0.0.1')?.current_connections).toBe(200)
    expect(statusOnNode(listeners[0], 'emqx@10.0.0.2')?.current_connections).toBe(301)
    expect(statusOnNode(listeners[0], 'emqx@10.0.0.1')?.max_connections).toBe('infinity')
  })

  it('falls back to the cluster status where there is no node_status, and never passes the sum off as a missing node', () => {
    expect(statusOnNode(listeners[1], 'emqx@10.0.0.1')).toEqual({ running: 'inconsistent', current_connections: 7, max_connections: 2048000 })
    expect(statusOnNode(listeners[0], 'emqx@10.0.0.9')).toBeUndefined()
  })

  it('keeps the fields it does not name', () => {
    expect(listeners[0]).toMatchObject({ acceptors: 16, number: 2 })
  })
})
