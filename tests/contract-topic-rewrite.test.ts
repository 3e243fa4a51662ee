// The topic rewrite contract (contract/topic-rewrite.ts) against the server's real answers, and the
// browser's API module reading them.
import { describe, expect, it } from 'vitest'
import { MAX_REWRITE_RULES, RewriteRuleListSchema, topicRewriteErrors, type RewriteRule } from '../contract/topic-rewrite.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

const rule = (n: number): RewriteRule => ({ action: 'all', source_topic: `contract/${n}/#`, dest_topic: `rewritten/${n}/$1`, re: `^contract/${n}/(.+)$` })

describe('topic rewrite contract', () => {
  it('the rules the server writes are the contract, with its errors', async () => {
    expectContract(RewriteRuleListSchema, (await suite.api.get('/mqtt/topic_rewrite')).body, 'empty list')
    const rules = [rule(1), { ...rule(2), action: 'subscribe' as const, dest_topic: 'rewritten/+' }]
    const replaced = expectContract(RewriteRuleListSchema, (await suite.api.request('PUT', '/mqtt/topic_rewrite', rules)).body, 'replaced')
    expect(replaced).toEqual(rules)
    expectContract(RewriteRuleListSchema, (await suite.api.get('/mqtt/topic_rewrite')).body, 'list')

    expectContractError(await suite.api.request('PUT', '/mqtt/topic_rewrite', [{ ...rule(1), action: 'route' }]), topicRewriteErrors.badRequest)
    expectContractError(await suite.api.request('PUT', '/mqtt/topic_rewrite', [{ ...rule(1), re: '^((a+)+)\\1$' }]), topicRewriteErrors.badRequest)
    expectContractError(await suite.api.request('PUT', '/mqtt/topic_rewrite', [{ ...rule(1), dest_topic: 'x/#' }]), topicRewriteErrors.badRequest)
    const tooMany = Array.from({ length: MAX_REWRITE_RULES }, (_, n) => rule(n))
    expectContractError(await suite.api.request('PUT', '/mqtt/topic_rewrite', tooMany), topicRewriteErrors.exceedLimit)

    const console = await consoleApi(suite.t)
    expect(await console.topicRewrite.list()).toEqual(rules)
    expect(await console.topicRewrite.replace([rule(3)])).toEqual([rule(3)])
    await console.topicRewrite.replace([])
  })
})
