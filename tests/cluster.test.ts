// The cluster as the embedded server answers it: a one-node cluster named as EMQX names it by
// default, with this node as its only core; inviting another node answers what EMQX answers for a
// node it cannot reach, and the commands show that answer as it is. The answers are held against the
// contract (contract/cluster.ts).
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../contract/api-error.ts'
import { clusterInfoSchema, clusterTopologySchema, invitationStatusSchema } from '../contract/cluster.ts'
import type { Api as ConsoleApi } from '../src/api/index.ts'
import { consoleApi, invalidArgs, runCommand } from './support/commands.ts'
import { startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api
let console: ConsoleApi

beforeAll(async () => {
  ts = await startTestServer()
  api = await ts.login()
  console = await consoleApi(ts)
})

afterAll(async () => {
  await ts?.close()
})

const bad = (message: string) => ({ status: 400, body: { code: 'BAD_REQUEST', message } })

describe('cluster', () => {
  it('is this one node, named emqxcl, its only core', async () => {
    const self = (await api.get('/nodes')).body[0].node
    const info = await api.get('/cluster')
    expect(info).toEqual({ status: 200, body: { name: 'emqxcl', nodes: [self], self } })
    expect(v.safeParse(clusterInfoSchema, info.body).success).toBe(true)
    const topology = await api.get('/cluster/topology')
    expect(topology.body).toEqual([{ core_node: self, replicant_nodes: [] }])
    expect(v.safeParse(clusterTopologySchema, topology.body).success).toBe(true)
  })

  it('answers an invitation as EMQX answers for a node it cannot reach, and refuses itself', async () => {
    const self = (await api.get('/cluster')).body.self
    expect(await api.request('PUT', '/cluster/emqx2@10.0.0.9/invite', {})).toEqual(bad('nodedown'))
    expect(await api.request('PUT', '/cluster/emqx2@10.0.0.9/invite', { timeout: 4999 })).toEqual(bad('timeout cannot be less than 5000ms'))
    expect(await api.request('PUT', '/cluster/emqx2@10.0.0.9/invite', { timeout: 'soon' })).toEqual(bad('timeout must be an integer'))
    expect(await api.request('PUT', `/cluster/${self}/invite`, {})).toEqual(bad('Cannot invite self'))
    expect(await api.request('PUT', '/cluster/no-at-sign/invite', {})).toEqual(bad('Bad node name'))
    // Nothing joined.
    expect((await api.get('/cluster')).body.nodes).toEqual([self])
  })

  it('follows an async invitation to its failure, as the coordinator records it', async () => {
    expect((await api.request('PUT', `/cluster/${(await api.get('/cluster')).body.self}/invite_async`)).body).toEqual({
      code: 'BAD_REQUEST',
      message: "Can't invite self",
    })
    expect((await api.request('PUT', '/cluster/emqx3@10.0.0.9/invite_async')).status).toBe(200)
    const status = await waitFor(async () => {
      const body = (await api.get('/cluster/invitation')).body
      return body.failed.length === 1 ? body : undefined
    }, 'the invitation to fail')
    expect(v.safeParse(invitationStatusSchema, status).success).toBe(true)
    expect(status.succeed).toEqual([])
    expect(status.in_progress).toEqual([])
    expect(status.failed[0]).toMatchObject({ node: 'emqx3@10.0.0.9', reason: '{error,{badrpc,nodedown}}' })
    expect(Date.parse(status.failed[0].finished_at)).toBeGreaterThanOrEqual(Date.parse(status.failed[0].started_at))
  })

  it('refuses to force out itself or a node that is not a member', async () => {
    const self = (await api.get('/cluster')).body.self
    expect(await api.delete(`/cluster/${self}/force_leave`)).toEqual(bad("Can't leave self"))
    expect(await api.delete('/cluster/emqx2@10.0.0.9/force_leave')).toEqual(bad('node_not_in_cluster'))
  })
})

describe('cluster commands', () => {
  it('check the node name before asking the server', () => {
    expect(invalidArgs('cluster.invite', { node: 'emqx2' })).toEqual(['node:err.nodeName'])
    expect(invalidArgs('cluster.invite', { node: 'emqx2@h', timeout: '100' })).toEqual(['timeout:err.min'])
    expect(invalidArgs('cluster.forceLeave', { node: 'emqx2@h' })).toEqual([])
  })

  it("show the server's answer as it is", async () => {
    const refusal = (id: string, raw: Record<string, unknown>) => runCommand(console, id, raw).then(() => undefined, (error: unknown) => error)
    const invite = await refusal('cluster.invite', { node: 'emqx2@10.0.0.9' })
    expect(invite).toBeInstanceOf(ApiError)
    expect(invite).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: 'nodedown' })
    expect(await refusal('cluster.forceLeave', { node: 'emqx2@10.0.0.9' })).toMatchObject({ message: 'node_not_in_cluster' })
    expect(await refusal('cluster.invite', { node: 'emqx4@10.0.0.9', async: 'true' })).toBeUndefined()
    await waitFor(async () => (await console.cluster.invitations()).failed.some((row) => row.node === 'emqx4@10.0.0.9'), 'the background invitation to end')
  })
})
