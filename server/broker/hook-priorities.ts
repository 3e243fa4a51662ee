// Hook priorities in one table, with EMQX's own numbers (apps/emqx/include/emqx_hooks.hrl): a higher
// number runs first on its hook point. Every `hooks.add` names one of these, so the order in which
// features see a connect, a check or a message reads from here and not from numbers in feature files.
// On `client.authenticate`: banned, then the authentication chain. On `client.authorize`: the
// authorization sources. On `message.publish`: rewrite, topic metrics, rules, delayed publish, ExHook.
export const HP = {
  HIGHEST: 1000,
  /**
   * Not an EMQX hook: EMQX looks a client up in its banned table before it runs the authentication
   * chain. Here the banned list is a `client.authenticate` callback that must answer before any
   * authenticator, so it sits at the top.
   */
  BANNED: 1000,
  PSK: 990,
  REWRITE: 980,
  AUTHN: 970,
  AUTHZ: 960,
  SYS_MSGS: 950,
  TOPIC_METRICS: 940,
  RETAINER: 930,
  AUTO_SUB: 920,
  RULE_ENGINE: 900,
  /** Apps that can work with the rule engine's republish action come after it. */
  SLOW_SUB: 880,
  BRIDGE: 870,
  DELAY_PUB: 860,
  /** Apps that can stop the hook chain run last. */
  NODE_REBALANCE: 110,
  EXHOOK: 100,
  /**
   * Not an EMQX hook either: EMQX's channel calls flapping detection itself when a client
   * disconnects. It only observes, so it runs after everything else.
   */
  FLAPPING: 0,
  LOWEST: 0,
} as const

export type HookPriority = (typeof HP)[keyof typeof HP]
