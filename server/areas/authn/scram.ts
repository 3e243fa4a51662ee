// scram + built_in_database (EMQX's emqx_authn_scram_mnesia): SCRAM-SHA-256 / SCRAM-SHA-512 (RFC 5802)
// over MQTT 5 enhanced authentication. The CONNECT carries the client-first message, the server
// answers AUTH with its server-first message, the client's AUTH carries its proof, and the CONNACK
// the server's signature. Users keep SCRAM's StoredKey and ServerKey (never the password), stored
// as `<stored key hex>:<server key hex>` with the salt in base64.
import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto'
import type { ScramConfig } from '../../../contract/authn.ts'
import type { MaybePromise } from '../../broker/hooks.ts'
import { UserDatabase } from './built-in-database.ts'
import type { HashedPassword } from './password-hash.ts'
import { IGNORE, NOT_AUTHORIZED, type Credential, type ProviderAnswer } from './provider.ts'

const METHODS = { sha256: 'SCRAM-SHA-256', sha512: 'SCRAM-SHA-512' } as const
const KEY_LENGTH = { sha256: 32, sha512: 64 } as const

interface FirstRound {
  nextStep: 'client_final'
  userId: string
  clientFirstBare: string
  serverFirst: string
  nonce: string
  gs2Header: string
}

/** `a=1,b=2` -> {a: '1', b: '2'} (values may hold '='). */
function attributes(text: string): Record<string, string> {
  return Object.fromEntries(text.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]))
}

/** SCRAM's escaped user name: `=2C` is ',' and `=3D` is '='. */
const unescapeName = (name: string) => name.replaceAll('=2C', ',').replaceAll('=3D', '=')

export class ScramDatabase extends UserDatabase {
  private readonly config: ScramConfig

  constructor(id: string, config: ScramConfig, repository: ConstructorParameters<typeof UserDatabase>[1]) {
    super(id, repository)
    this.config = config
  }

  private hmac(key: Buffer, text: string | Buffer): Buffer {
    return createHmac(this.config.algorithm, key).update(text).digest()
  }

  protected hash(password: string): Promise<HashedPassword> {
    const salt = randomBytes(16)
    return new Promise((resolve, reject) =>
      pbkdf2(password, salt, Math.max(1, this.config.iteration_count), KEY_LENGTH[this.config.algorithm], this.config.algorithm, (error, salted) => {
        if (error) return reject(error)
        const storedKey = createHash(this.config.algorithm).update(this.hmac(salted, 'Client Key')).digest()
        const serverKey = this.hmac(salted, 'Server Key')
        resolve({ passwordHash: `${storedKey.toString('hex')}:${serverKey.toString('hex')}`, salt: salt.toString('base64') })
      }),
    )
  }

  authenticate(credential: Credential): MaybePromise<ProviderAnswer> {
    if (credential.authMethod !== METHODS[this.config.algorithm] || credential.authData === undefined) return IGNORE
    const cache = credential.authCache as FirstRound | undefined
    return cache?.nextStep === 'client_final' ? this.clientFinal(credential.authData.toString('utf8'), cache) : this.clientFirst(credential.authData.toString('utf8'))
  }

  /** client-first-message (`n,,n=user,r=nonce`) -> server-first-message (`r=nonce+ours,s=salt,i=iterations`). */
  private clientFirst(message: string): ProviderAnswer {
    const match = /^([ny]),(a=[^,]*)?,(.*)$/.exec(message)
    if (!match) return NOT_AUTHORIZED
    const clientFirstBare = match[3]
    const { n: name, r: clientNonce } = attributes(clientFirstBare)
    if (!name || !clientNonce) return NOT_AUTHORIZED
    const userId = unescapeName(name)
    const user = this.repository.findUser(this.id, userId)
    if (!user) return NOT_AUTHORIZED
    const nonce = clientNonce + randomBytes(18).toString('base64')
    const serverFirst = `r=${nonce},s=${user.salt},i=${this.config.iteration_count}`
    const cache: FirstRound = { nextStep: 'client_final', userId, clientFirstBare, serverFirst, nonce, gs2Header: message.slice(0, message.length - clientFirstBare.length) }
    return { result: 'continue', data: Buffer.from(serverFirst, 'utf8'), cache }
  }

  /** client-final-message (`c=...,r=...,p=proof`) -> the server's signature (`v=...`) when the proof holds. */
  private clientFinal(message: string, round: FirstRound): ProviderAnswer {
    const proofAt = message.lastIndexOf(',p=')
    if (proofAt < 0) return NOT_AUTHORIZED
    const withoutProof = message.slice(0, proofAt)
    const { c: binding, r: nonce } = attributes(withoutProof)
    if (nonce !== round.nonce || binding !== Buffer.from(round.gs2Header, 'utf8').toString('base64')) return NOT_AUTHORIZED
    const user = this.repository.findUser(this.id, round.userId)
    const [storedHex, serverHex] = user?.passwordHash.split(':') ?? []
    if (!user || !storedHex || !serverHex) return NOT_AUTHORIZED
    const storedKey = Buffer.from(storedHex, 'hex')
    const authMessage = `${round.clientFirstBare},${round.serverFirst},${withoutProof}`
    const signature = this.hmac(storedKey, authMessage)
    const proof = Buffer.from(message.slice(proofAt + 3), 'base64')
    if (proof.length !== signature.length) return NOT_AUTHORIZED
    const clientKey = Buffer.from(proof.map((byte, i) => byte ^ signature[i]))
    const computed = createHash(this.config.algorithm).update(clientKey).digest()
    if (!timingSafeEqual(computed, storedKey)) return NOT_AUTHORIZED
    const serverSignature = this.hmac(Buffer.from(serverHex, 'hex'), authMessage)
    return { result: 'ok', isSuperuser: user.isSuperuser, authData: Buffer.from(`v=${serverSignature.toString('base64')}`, 'utf8') }
  }
}
