// The cluster: invite a node (waiting for the join, or in the background) and force a node out.
// The server's answer is shown as it is: the embedded server cannot join an Erlang cluster and says so
// as EMQX does for a node it cannot reach.
import * as v from 'valibot'
import { isNodeName, MIN_INVITE_TIMEOUT } from '../contract/cluster.ts'
import { defineCommand, type Completer } from './define.ts'
import { defineRead, tableOf } from './format/read.ts'
import type { NodeInfo } from '../src/api/nodes.ts'

const node = () => v.pipe(v.string('err.required'), v.title('form.field.node'), v.trim(), v.minLength(1, 'err.required'), v.check(isNodeName, 'err.nodeName'))

/** The cluster's nodes but this one: the ones force-leave may name. */
const completeOtherNode: Completer = async (api, query, signal) => {
  const info = await api.cluster.info(signal)
  return info.nodes.filter((name) => name !== info.self && name.includes(query))
}

export const inviteNode = defineCommand({
  id: 'cluster.invite',
  title: 'cmd.cluster.invite',
  group: 'cmdGroup.cluster',
  changes: ['cluster'],
  args: v.object({
    node: node(),
    timeout: v.optional(v.pipe(v.number('err.number'), v.title('form.field.inviteTimeout'), v.integer('err.integer'), v.minValue(MIN_INVITE_TIMEOUT))),
    async: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.inviteAsync'), v.description('form.hint.inviteAsync')), false),
  }),
  positional: ['node'],
  suggestOnly: ['node'],
  aliases: ['join node', 'add node', '邀请节点', '加入集群'],
  describe: ({ node }) => ({ key: 'cmd.cluster.inviteDescribe', values: { node } }),
  run: (ctx, { node, timeout, async }) => (async ? ctx.api.cluster.inviteAsync(node) : ctx.api.cluster.invite(node, timeout)),
})

export const forceLeave = defineCommand({
  id: 'cluster.forceLeave',
  title: 'cmd.cluster.forceLeave',
  group: 'cmdGroup.cluster',
  changes: ['cluster'],
  args: v.object({ node: node() }),
  positional: ['node'],
  danger: true,
  aliases: ['remove node', 'leave cluster', '移出节点'],
  complete: { node: completeOtherNode },
  describe: ({ node }) => ({ key: 'cmd.cluster.forceLeaveDescribe', values: { node } }),
  run: (ctx, { node }) => ctx.api.cluster.forceLeave(node),
})

/** The cluster's nodes and their figures. */
export const listNodes = defineRead({
  id: 'nodes.list',
  title: 'cmd.nodes.list',
  group: 'cmdGroup.cluster',
  aliases: ['nodes', '节点列表'],
  args: v.object({}),
  run: (ctx) => ctx.api.nodes.list(),
  table: (nodes: NodeInfo[]) =>
    tableOf<NodeInfo>(
      [
        ['node', (n) => n.node],
        ['status', (n) => n.node_status],
        ['version', (n) => n.version],
        ['uptime', (n) => n.uptime],
        ['connections', (n) => n.connections],
        ['memory_used', (n) => n.memory_used],
        ['memory_total', (n) => n.memory_total],
      ],
      nodes,
    ),
})

export const clusterCommands = [listNodes, inviteNode, forceLeave]
