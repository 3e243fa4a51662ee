// Actions (on a connector): create, change, delete (alsoDeleteDepActions takes it out of the rules
// first), enable, disable, start, test, reset metrics, list. Built by commands/integration.ts.
import { bridgeCommands } from './integration.ts'

const c = bridgeCommands('actions')

export const createAction = c.create
export const updateAction = c.update
export const deleteAction = c.remove
export const enableAction = c.enable
export const disableAction = c.disable
export const startAction = c.start
export const testAction = c.test
export const resetMetricsAction = c.resetMetrics
export const listActions = c.list

export const actionCommands = [c.list, c.create, c.update, c.test, c.enable, c.disable, c.start, c.resetMetrics, c.remove]
