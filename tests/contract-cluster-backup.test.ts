// The cluster and data backup contracts (contract/cluster.ts, contract/data-backup.ts) against the
// server's real answers, every field the server writes held by the contract, its errors by their
// status and code, and the browser's API modules reading them.
import { describe, expect, it } from 'vitest'
import { CLUSTER_ERRORS, clusterInfoSchema, clusterTopologySchema, invitationStatusSchema } from '../contract/cluster.ts'
import { BACKUP_ERRORS, backupFileSchema, backupFilesSchema } from '../contract/data-backup.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()

describe('cluster contract', () => {
  it('the info, topology and invitations the server writes are the contract, with its errors', async () => {
    const info = expectContract(clusterInfoSchema, (await suite.api.get('/cluster')).body, 'info')
    expectContract(clusterTopologySchema, (await suite.api.get('/cluster/topology')).body, 'topology')
    await suite.api.request('PUT', '/cluster/emqx5@10.0.0.9/invite_async')
    await waitFor(async () => (await suite.api.get('/cluster/invitation')).body.failed.length > 0, 'the invitation to end')
    expectContract(invitationStatusSchema, (await suite.api.get('/cluster/invitation')).body, 'invitations')
    expectContractError(await suite.api.request('PUT', `/cluster/${info.self}/invite`, {}), CLUSTER_ERRORS.inviteSelf)
    expectContractError(await suite.api.delete('/cluster/emqx5@10.0.0.9/force_leave'), CLUSTER_ERRORS.notInCluster)

    const console = await consoleApi(suite.t)
    expect(await console.cluster.info()).toEqual(info)
    expect((await console.cluster.invitations()).failed[0].node).toBe('emqx5@10.0.0.9')
  })
})

describe('data backup contract', () => {
  it('the exported file and the list the server writes are the contract, with its errors', async () => {
    const file = expectContract(backupFileSchema, (await suite.api.post('/data/export', {})).body, 'export')
    expectContract(backupFilesSchema, (await suite.api.get('/data/files?limit=1')).body, 'list')
    expectContractError(await suite.api.post('/data/import', { filename: 'gone.tar.gz' }), BACKUP_ERRORS.importNotFound)
    expectContractError(await suite.api.get('/data/files/gone.tar.gz'), BACKUP_ERRORS.notFound)
    expectContractError(await suite.api.post('/data/import', { filename: 'gone.tgz' }), BACKUP_ERRORS.badName)

    const console = await consoleApi(suite.t)
    expect((await console.dataBackup.list()).data).toEqual([file])
    expect((await console.dataBackup.download(file.filename)).size).toBe(file.size)
  })
})
