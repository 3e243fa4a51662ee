// Connectors: create, change, delete, enable, disable, start (5.8 has no restart: start again
// reconnects), test the connection, list. Built by commands/integration.ts, shared with actions and sources.
import { integrationCommands } from './integration.ts'

const c = integrationCommands('connectors')

export const createConnector = c.create
export const updateConnector = c.update
export const deleteConnector = c.remove
export const enableConnector = c.enable
export const disableConnector = c.disable
export const startConnector = c.start
export const testConnector = c.test
export const listConnectors = c.list

export const connectorCommands = [c.list, c.create, c.update, c.test, c.enable, c.disable, c.start, c.remove]
