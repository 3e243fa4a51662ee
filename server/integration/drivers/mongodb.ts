// MongoDB (EMQX's `mongodb` connector and action, emqx_bridge_mongodb over emqx_mongodb) through the
// shared MongoBackend: each row is inserted as a document into the collection its `collection`
// template names (default `mqtt`); the document is the rule's selected data, or the
// `payload_template` rendered and read as JSON. mongo_date() values become BSON dates, as EMQX's
// driver turns its date tuples into ISODate. A lost or unreachable server is worth retrying; what
// the server refuses (a duplicate key, a document it cannot take) fails the row.
import { MongoNetworkError, MongoServerSelectionError, MongoTopologyClosedError, type Document } from 'mongodb'
import { MongoBackend } from '../../backends/mongodb.ts'
import { reasonOf } from '../../backends/resource.ts'
import { parseTemplate, renderTemplate, type Template } from '../../rules/engine/template.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver } from '../driver.ts'
import type { TraceFields } from '../../trace/event.ts'
import { backendHealth, openChecked, within } from './backend.ts'
import { isObject } from './config-fields.ts'
import { mongodbConnection } from './mongodb-config.ts'
import { isConnectionError } from './sql.ts'

export interface MongodbPrepared {
  collection: Template
  /** Undefined (or empty): the selected data is the document. */
  payload: Template | undefined
}

/** What the rule function mongo_date() gives: `ISODate(<RFC 3339>)`. */
const ISO_DATE = /^ISODate\((.+)\)$/

/** mongo_date() values as dates, anywhere in the document. */
function withDates(value: unknown): unknown {
  if (typeof value === 'string') {
    const m = ISO_DATE.exec(value)
    const date = m ? new Date(m[1]) : undefined
    return date && !Number.isNaN(date.getTime()) ? date : value
  }
  if (Array.isArray(value)) return value.map(withDates)
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDates(v)]))
  return value
}

/** The document a row makes (render_message); throws UnrecoverableError when the template is not a JSON object. */
export function mongodbDocument(prepared: MongodbPrepared, row: Record<string, unknown>): Document {
  if (!prepared.payload) return withDates(row) as Document
  const text = renderTemplate(prepared.payload, row)
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    throw new UnrecoverableError(`payload_template did not render JSON: ${text}`)
  }
  if (!isObject(document)) throw new UnrecoverableError(`payload_template must render a JSON object, got: ${text}`)
  return withDates(document) as Document
}

function failure(error: unknown): Error {
  const lost = error instanceof MongoNetworkError || error instanceof MongoServerSelectionError || error instanceof MongoTopologyClosedError || isConnectionError(error)
  return lost ? new RecoverableError(reasonOf(error)) : new UnrecoverableError(reasonOf(error))
}

export const mongodbConnector: ConnectorDriver<MongoBackend> & { check(config: Record<string, unknown>): void } = {
  type: 'mongodb',
  check: (config) => void mongodbConnection(config),
  start: (config) => openChecked(new MongoBackend(mongodbConnection(config))),
  health: backendHealth,
  stop: (backend) => backend.close(),
}

export const mongodbAction: ActionDriver<MongoBackend, MongodbPrepared> = {
  type: 'mongodb',
  connectorType: 'mongodb',
  prepare(parameters) {
    const collection = parameters.collection ?? 'mqtt'
    if (typeof collection !== 'string' || collection === '') throw new Error('parameters.collection: must be a non-empty template')
    const payload = parameters.payload_template
    if (payload !== undefined && payload !== null && typeof payload !== 'string') throw new Error('parameters.payload_template: must be text')
    return { collection: parseTemplate(collection), payload: payload ? parseTemplate(payload) : undefined }
  },
  async send(backend, prepared, batch, { timeoutMs, signal, trace }) {
    const byCollection = new Map<string, Document[]>()
    for (const row of batch) {
      const name = renderTemplate(prepared.collection, row)
      const document = mongodbDocument(prepared, row)
      // The document as JSON has it (a date as its ISO text).
      trace?.rendered({ collection: name, data: JSON.parse(JSON.stringify(document)) as TraceFields })
      byCollection.set(name, [...(byCollection.get(name) ?? []), document])
    }
    try {
      for (const [collection, documents] of byCollection) await within(backend.insert(collection, documents), timeoutMs, signal)
    } catch (error) {
      throw error instanceof RecoverableError ? error : failure(error)
    }
  },
}
