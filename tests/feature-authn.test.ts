// The authentication feature installed on a real broker and database, without the HTTP server:
// what it keeps for authorization (the ACL an authenticator gave a client).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT } from 'jose'
import { afterEach, describe, expect, it } from 'vitest'
import { AuthnFeature } from '../server/areas/authn/feature.ts'
import { authnMigrations } from '../server/areas/authn/migrations.ts'
import { AuthnRepository } from '../server/areas/authn/store.ts'
import { parseConfig } from '../server/areas/authn/configs.ts'
import { Broker } from '../server/broker/broker.ts'
import type { ClientInfo } from '../server/broker/hooks.ts'
import { openDatabase } from '../server/store/db.ts'

const info = (clientid: string): ClientInfo => ({ clientid, username: 'u', peerhost: '127.0.0.1', peerport: 1, protoVer: 5, listener: 'tcp:default', mountpoint: undefined, isSuperuser: false })

describe('the authentication feature', () => {
  const cleanups: Array<() => void | Promise<void>> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  const install = () => {
    const dir = mkdtempSync(join(tmpdir(), 'emqx-console-authn-'))
    const db = openDatabase(dir, authnMigrations)
    const broker = new Broker()
    const feature = new AuthnFeature(broker, new AuthnRepository(db))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }), () => db.close(), () => broker.close(), () => feature.stop())
    return { broker, feature }
  }

  it('keeps the ACL claim of a JWT for the client it let in, and forgets it at the next attempt', async () => {
    const { broker, feature } = install()
    feature.create(parseConfig({ mechanism: 'jwt', algorithm: 'hmac-based', secret: 'k' }))
    const acl = [{ permission: 'allow', action: 'publish', topic: 'room/1' }]
    const token = await new SignJWT({ acl }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('k'))
    const client = info('with-acl')
    expect(await broker.access.authenticate(client, Buffer.from(token))).toEqual({ result: 'allow', isSuperuser: false })
    expect(feature.aclOf(client)).toEqual(acl)
    const plain = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('k'))
    await broker.access.authenticate(client, Buffer.from(plain))
    expect(feature.aclOf(client)).toBeUndefined()
  })
})
