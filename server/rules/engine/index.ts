// The rule engine on the broker: rules compiled and indexed, run on the publish path and on events,
// their outputs (republish, console, actions by id through ActionRegistry) and their metrics.
export { isEventTopic, RuleEngine, type EngineRule, type RuleDefinition, type RunOptions, type RunResult } from './engine.ts'
export { ActionRegistry, formatOutput, parseActionId, republishArgsWithDefaults, republishTemplates, type ActionDispatcher, type ActionOutcome, type ActionSend, type ParsedOutput, type RepublishArgsConfig } from './outputs.ts'
export { RuleMetricsCounters, zeroMetrics } from './metrics.ts'
export { parseTemplate, renderTemplate } from './template.ts'
export { publishColumns, peername } from './publish-context.ts'
