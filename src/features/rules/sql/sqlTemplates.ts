// SQL examples beside the editor, as EMQX's dashboard (v1.10.5) lists them: each a title and a
// scene (i18n keys `ruleSql.template.<id>.title` / `.scene`), the SQL, and a payload to test it with.

export interface SqlTemplate {
  id: string
  sql: string
  /** The test payload that shows what the example does (message publish), when it needs one. */
  payload?: unknown
}

const SENSORS = { date: '2020-04-24', sensors: [{ name: 'a', idx: 0 }, { name: 'b', idx: 1 }, { name: 'c', idx: 2 }] }

export const SQL_TEMPLATES: readonly SqlTemplate[] = [
  { id: 'selectTopic', sql: 'SELECT\n  payload AS p\nFROM\n  "t/#"', payload: { msg: 'hello' } },
  { id: 'clientEvents', sql: 'SELECT\n  *\nFROM\n  "$events/client_connected",\n  "$events/client_disconnected"' },
  { id: 'foreach', sql: 'FOREACH\n  payload.sensors\nFROM\n  "t/#"', payload: SENSORS },
  {
    id: 'foreachIncase',
    sql: 'FOREACH\n  payload.sensors\nDO\n  clientid,\n  item.name AS name,\n  item.idx AS idx\nINCASE\n  item.idx >= 1\nFROM\n  "t/#"',
    payload: SENSORS,
  },
  {
    id: 'caseWhen',
    sql: 'SELECT\n  CASE WHEN payload.x < 0 THEN 0\n       WHEN payload.x > 7 THEN 7\n  ELSE payload.x\n  END AS x\nFROM\n  "t/#"',
    payload: { x: 8 },
  },
  { id: 'nestedArray', sql: 'SELECT\n  payload.data[1].id AS id\nFROM\n  "t/#"', payload: { data: [{ id: 1, name: 'steve' }, { id: 2, name: 'bill' }] } },
  { id: 'where', sql: 'SELECT\n  payload.temp AS t\nFROM\n  "sensors/#"\nWHERE\n  t > 30', payload: { temp: 31 } },
]
