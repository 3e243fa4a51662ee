// The file source: the acl.conf rules, compiled once when the source is created or changed.
import type { AuthzAction, AuthzDetail, ClientInfo } from '../../broker/hooks.ts'
import { parseAclConf } from './acl-conf.ts'
import { firstMatch, matchRules, type Rule } from './rules.ts'
import type { Explained, SourceAnswer, SourceRunner } from './source.ts'

export class FileSource implements SourceRunner {
  private readonly rules: Rule[]

  /** Throws AclError (with its line) when the text is not a valid acl.conf. */
  constructor(text: string) {
    this.rules = parseAclConf(text)
  }

  authorize(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): SourceAnswer {
    return matchRules(this.rules, info, action, topic, detail)
  }

  explain(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): Explained {
    const rule = firstMatch(this.rules, info, action, topic, detail)
    return { answer: rule?.permission, rule: rule?.origin }
  }

  status(): 'connected' {
    return 'connected'
  }
}
