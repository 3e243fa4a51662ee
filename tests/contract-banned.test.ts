// The banned contract (contract/banned.ts) against the server's real answers, and the browser's API
// module reading them.
import { describe, expect, it } from 'vitest'
import { BanRecordPageSchema, BanRecordSchema, bannedErrors } from '../contract/banned.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('banned contract', () => {
  it('the ban and the pages the server writes are the contract, with its errors', async () => {
    const created = expectContract(BanRecordSchema, (await suite.api.post('/banned', { as: 'clientid', who: 'contract-banned', reason: 'contract' })).body, 'created')
    expect(created.until).toBe('infinity')
    const until = new Date(Date.now() + 3_600_000).toISOString()
    expectContract(BanRecordSchema, (await suite.api.post('/banned', { as: 'username_re', who: '^contract', until })).body, 'created with until')
    const page = expectContract(BanRecordPageSchema, (await suite.api.get('/banned')).body, 'list')
    expect(page.data.map((ban) => ban.who).sort()).toEqual(['^contract', 'contract-banned'])
    expectContract(BanRecordPageSchema, (await suite.api.get('/banned?like_clientid=^contract')).body, 'filtered list')

    expectContractError(await suite.api.post('/banned', { as: 'clientid', who: 'contract-banned' }), bannedErrors.alreadyExists)
    expectContractError(await suite.api.post('/banned', { as: 'nobody', who: 'x' }), bannedErrors.badRequest)
    expectContractError(await suite.api.get('/banned?clientid=a&username=b'), bannedErrors.badRequest)
    expectContractError(await suite.api.get('/banned?like_clientid=((a+)+)\\1'), bannedErrors.badRequest)
    expectContractError(await suite.api.delete('/banned/clientid/contract-none'), bannedErrors.notFound)

    const console = await consoleApi(suite.t)
    expect((await console.banned.list()).data.map((ban) => ban.who).sort()).toEqual(['^contract', 'contract-banned'])
    expect((await console.banned.create({ as: 'peerhost', who: '192.0.2.7' })).who).toBe('192.0.2.7')
    await console.banned.delete('clientid', 'contract-banned')
    await console.banned.clear()
    expect((await suite.api.get('/banned')).body.data).toEqual([])
  })
})
