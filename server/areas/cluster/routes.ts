// /cluster: the one-node cluster of the embedded server, answered as EMQX 5.8 answers for a node
// with no peers. Joining needs an Erlang node: inviting another node answers what EMQX answers when
// it cannot reach that node (`nodedown`), force-leave what mria answers for a non-member.
import type { FastifyInstance } from 'fastify'
import {
  CLUSTER_ERRORS,
  DEFAULT_INVITE_TIMEOUT,
  MIN_INVITE_TIMEOUT,
  isNodeName,
  type ClusterInfo,
  type ClusterTopology,
  type InvitationStatus,
} from '../../../contract/cluster.ts'
import type { Broker } from '../../broker/broker.ts'
import { contractError } from '../../http/errors.ts'
import type { Invitations } from './invitations.ts'

/** EMQX's default `cluster.name`. */
export const CLUSTER_NAME = 'emqxcl'

type NodeParams = { Params: { node: string } }

export async function clusterRoutes(app: FastifyInstance, deps: { broker: Broker; feature: Invitations }): Promise<void> {
  const { broker, feature: invitations } = deps
  const self = () => broker.node

  /** The node of the path, checked as EMQX's schema checks it. */
  const nodeOf = (params: { node: string }): string => {
    if (!isNodeName(params.node)) throw contractError(CLUSTER_ERRORS.badNode)
    return params.node
  }

  app.get('/cluster', async (): Promise<ClusterInfo> => ({ name: CLUSTER_NAME, nodes: [self()], self: self() }))

  app.get('/cluster/topology', async (): Promise<ClusterTopology> => [{ core_node: self(), replicant_nodes: [] }])

  app.get('/cluster/invitation', async (): Promise<InvitationStatus> => invitations.status())

  app.put<NodeParams>('/cluster/:node/invite', async (request) => {
    const node = nodeOf(request.params)
    const body = (request.body ?? {}) as Record<string, unknown>
    const timeout = body.timeout ?? DEFAULT_INVITE_TIMEOUT
    if (typeof timeout !== 'number' || !Number.isInteger(timeout)) throw contractError(CLUSTER_ERRORS.timeoutNotInteger)
    if (timeout < MIN_INVITE_TIMEOUT) throw contractError(CLUSTER_ERRORS.timeoutTooShort)
    if (node === self()) throw contractError(CLUSTER_ERRORS.inviteSelf)
    // EMQX's `rpc:call` to the node: the embedded server reaches no Erlang node.
    throw contractError(CLUSTER_ERRORS.nodeDown)
  })

  app.put<NodeParams>('/cluster/:node/invite_async', async (request, reply) => {
    const node = nodeOf(request.params)
    if (node === self()) throw contractError(CLUSTER_ERRORS.inviteSelfAsync)
    if (!invitations.invite(node)) throw contractError(CLUSTER_ERRORS.alreadyInviting)
    return reply.status(200).send()
  })

  app.delete<NodeParams>('/cluster/:node/force_leave', async (request) => {
    const node = nodeOf(request.params)
    if (node === self()) throw contractError(CLUSTER_ERRORS.leaveSelf)
    throw contractError(CLUSTER_ERRORS.notInCluster)
  })
}
