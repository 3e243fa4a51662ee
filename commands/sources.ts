// Sources (on a connector): create, change, delete (alsoDeleteDepActions takes it out of the rules
// first), enable, disable, start, test, reset metrics, list. Built by commands/integration.ts.
import { bridgeCommands } from './integration.ts'

const c = bridgeCommands('sources')

export const createSource = c.create
export const updateSource = c.update
export const deleteSource = c.remove
export const enableSource = c.enable
export const disableSource = c.disable
export const startSource = c.start
export const testSource = c.test
export const resetMetricsSource = c.resetMetrics
export const listSources = c.list

export const sourceCommands = [c.list, c.create, c.update, c.test, c.enable, c.disable, c.start, c.resetMetrics, c.remove]
