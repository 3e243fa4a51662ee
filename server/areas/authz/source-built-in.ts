// The built_in_database source: answers from the rules the API keeps (built-in-rules.ts).
import type { AuthzAction, AuthzDetail, ClientInfo } from '../../broker/hooks.ts'
import type { BuiltInRules } from './built-in-rules.ts'
import type { SourceAnswer, SourceRunner } from './source.ts'

export class BuiltInSource implements SourceRunner {
  private readonly rules: BuiltInRules

  constructor(rules: BuiltInRules) {
    this.rules = rules
  }

  authorize(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): SourceAnswer {
    return this.rules.authorize(info, action, topic, detail)
  }

  explain(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail) {
    return this.rules.explain(info, action, topic, detail)
  }

  status(): 'connected' {
    return 'connected'
  }
}
