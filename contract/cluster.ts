// Cluster (EMQX 5.8 emqx_mgmt_api_cluster): the cluster's name and running nodes, the core and
// replicant topology, node invitations (sync and async) and force-leave. Written once for the
// server and the browser. The embedded server is a one-node cluster that cannot join an Erlang
// cluster: inviting a node answers what EMQX answers for a node it cannot reach.
import * as v from 'valibot'

/** `GET /cluster`. */
export const clusterInfoSchema = v.object({ name: v.string(), nodes: v.array(v.string()), self: v.string() })
export type ClusterInfo = v.InferOutput<typeof clusterInfoSchema>

/** `GET /cluster/topology`: each running core with its replicants (every CE node is a core). */
export const clusterTopologySchema = v.array(
  v.object({ core_node: v.string(), replicant_nodes: v.array(v.object({ node: v.string(), streams: v.number() })) }),
)
export type ClusterTopology = v.InferOutput<typeof clusterTopologySchema>

const invitation = { node: v.string(), started_at: v.string() }
/** `GET /cluster/invitation`: the async invitations, by outcome; times are RFC 3339. */
export const invitationStatusSchema = v.object({
  succeed: v.array(v.object({ ...invitation, finished_at: v.string() })),
  in_progress: v.array(v.object(invitation)),
  failed: v.array(v.object({ ...invitation, finished_at: v.string(), reason: v.string() })),
})
export type InvitationStatus = v.InferOutput<typeof invitationStatusSchema>

/** EMQX's `validate_node`: a node name is `name@host`, exactly one `@`. */
export function isNodeName(node: string): boolean {
  return node.split('@').length === 2
}

/** `PUT /cluster/:node/invite` body: `timeout` in ms, at least 5000 (default 15000). */
export const DEFAULT_INVITE_TIMEOUT = 15_000
export const MIN_INVITE_TIMEOUT = 5_000

export const CLUSTER_ERRORS = {
  badNode: { status: 400, code: 'BAD_REQUEST', message: 'Bad node name' },
  timeoutNotInteger: { status: 400, code: 'BAD_REQUEST', message: 'timeout must be an integer' },
  timeoutTooShort: { status: 400, code: 'BAD_REQUEST', message: 'timeout cannot be less than 5000ms' },
  inviteSelf: { status: 400, code: 'BAD_REQUEST', message: 'Cannot invite self' },
  inviteSelfAsync: { status: 400, code: 'BAD_REQUEST', message: "Can't invite self" },
  alreadyInviting: { status: 400, code: 'BAD_REQUEST', message: 'The invitation task already created for this node' },
  leaveSelf: { status: 400, code: 'BAD_REQUEST', message: "Can't leave self" },
  /** `rpc:call` to a node that cannot be reached answers `{badrpc, nodedown}`; EMQX prints the reason. */
  nodeDown: { status: 400, code: 'BAD_REQUEST', message: 'nodedown' },
  /** mria's answer to force-leave of a node that is not a member. */
  notInCluster: { status: 400, code: 'BAD_REQUEST', message: 'node_not_in_cluster' },
} as const

/** The reason an async invitation of an unreachable node fails with (`~0p` of `{error, {badrpc, nodedown}}`). */
export const ASYNC_NODEDOWN_REASON = '{error,{badrpc,nodedown}}'
