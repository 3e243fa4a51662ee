// LDAP for authentication and authorization (ldapts, a maintained pure-JS client): searches under a
// base DN with a filter whose placeholders are escaped as RFC 4515 asks, and binds as a found entry
// to check its password (EMQX's `method: bind`). One connection for searches, bound as the
// configured user; a bind to check a password uses a connection of its own.
import { Client, type Entry } from 'ldapts'
import { checked, parseServer, type Backend, type BackendHealth } from './resource.ts'
import { ldapFilterValue, renderTemplate, type Template, type TemplateValues } from './template.ts'

export interface LdapConfig {
  /** `host[:port]`, port 389 by default. */
  server: string
  /** The DN the searches bind as, and its password. */
  username: string
  password?: string
  timeoutMs?: number
}

export class LdapBackend implements Backend {
  private readonly url: string
  private readonly config: LdapConfig
  private readonly timeoutMs: number
  private searcher: Promise<Client> | undefined

  constructor(config: LdapConfig) {
    const { host, port } = parseServer(config.server, 389)
    this.url = `ldap://${host.includes(':') ? `[${host}]` : host}:${port}`
    this.config = config
    this.timeoutMs = config.timeoutMs ?? 5000
  }

  private client(): Client {
    return new Client({ url: this.url, timeout: this.timeoutMs, connectTimeout: this.timeoutMs })
  }

  private bound(): Promise<Client> {
    this.searcher ??= (async () => {
      const client = this.client()
      await client.bind(this.config.username, this.config.password ?? '')
      return client
    })().catch((error: unknown) => {
      this.searcher = undefined
      throw error
    })
    return this.searcher
  }

  /** The entries under `baseDn` (a template) matching `filter` (a template, values escaped). */
  async search(baseDn: Template, filter: Template, values: TemplateValues, attributes?: string[]): Promise<Entry[]> {
    const client = await this.bound()
    try {
      const { searchEntries } = await client.search(renderTemplate(baseDn, values), {
        scope: 'sub',
        filter: renderTemplate(filter, values, ldapFilterValue),
        ...(attributes ? { attributes } : {}),
      })
      return searchEntries
    } catch (error) {
      // A broken connection is made anew next time.
      this.searcher = undefined
      await client.unbind().catch(() => {})
      throw error
    }
  }

  /** Whether `dn` binds with `password` (an empty password never does: it would be an anonymous bind). */
  async binds(dn: string, password: string): Promise<boolean> {
    if (password === '') return false
    const client = this.client()
    try {
      await client.bind(dn, password)
      return true
    } catch (error) {
      if ((error as { code?: number }).code === 49) return false // invalidCredentials
      throw error
    } finally {
      await client.unbind().catch(() => {})
    }
  }

  health(): Promise<BackendHealth> {
    return checked(this.timeoutMs, () => this.bound())
  }

  async close(): Promise<void> {
    const searcher = this.searcher
    this.searcher = undefined
    if (searcher) await (await searcher.catch(() => undefined))?.unbind().catch(() => {})
  }
}
