// The cluster (`/cluster`): its name and running nodes, topology, invitations, invite and force-leave.
import { clusterInfoSchema, clusterTopologySchema, invitationStatusSchema, type ClusterInfo, type ClusterTopology, type InvitationStatus } from '../../contract/cluster.ts'
import { pathSegment } from './clients.ts'
import type { Http } from './http.ts'

export type { ClusterInfo, ClusterTopology, InvitationStatus } from '../../contract/cluster.ts'

export function clusterApi(http: Http) {
  return {
    info(signal?: AbortSignal): Promise<ClusterInfo> {
      return http.get('cluster', clusterInfoSchema, undefined, signal)
    },
    topology(signal?: AbortSignal): Promise<ClusterTopology> {
      return http.get('cluster/topology', clusterTopologySchema, undefined, signal)
    },
    invitations(signal?: AbortSignal): Promise<InvitationStatus> {
      return http.get('cluster/invitation', invitationStatusSchema, undefined, signal)
    },
    /** Joins `node` into this cluster and waits (400 BAD_REQUEST with EMQX's reason when it cannot). */
    invite(node: string, timeout?: number): Promise<void> {
      return http.send('put', `cluster/${pathSegment(node)}/invite`, null, timeout === undefined ? {} : { timeout })
    },
    /** Starts the invitation; its outcome shows in `invitations()`. */
    inviteAsync(node: string): Promise<void> {
      return http.send('put', `cluster/${pathSegment(node)}/invite_async`, null)
    },
    forceLeave(node: string): Promise<void> {
      return http.send('delete', `cluster/${pathSegment(node)}/force_leave`, null)
    },
  }
}

export type ClusterApi = ReturnType<typeof clusterApi>
