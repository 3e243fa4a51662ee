// The rule engine's event sources (issue 15): the `$events/…` contexts built from the broker's
// hooks, `GET /rule_events`' catalogue, and `/rule_test`'s contexts, as EMQX 5.8.9's
// emqx_rule_events and emqx_rule_sqltester have them. The engine (server/areas/rules) hands its
// sink to attachRuleEvents and answers the two endpoints with the rest.
export { attachRuleEvents, EVENT_TOPICS, type RuleEventDeps, type RuleEventSink } from './attach.ts'
export { columnsOf, RULE_EVENTS, ruleEventCatalogue, type RuleEventDef } from './catalogue.ts'
export { isSysMessage } from './contexts.ts'
export { printableProps } from './properties.ts'
export { eventTopicOfType, testContext } from './test-context.ts'
