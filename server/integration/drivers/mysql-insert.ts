// EMQX's batch insert for MySQL (emqx_utils_sql:parse_insert): an `insert into t(cols) values (...)`
// statement is cut into the part before VALUES and the one parenthesised row after it, so a batch
// is one statement with a row group per message. The row's parentheses may nest (function calls).

export interface InsertParts {
  /** `insert into t(cols)`. */
  insert: string
  /** `(${a}, f(${b}))`, the balanced group after VALUES. */
  row: string
}

const HEAD = /^\s*(insert\s+into\s+[^\s()]+\s*(?:\([^)]*\))?)\s*values\s*/i

/** The parts of a single-row INSERT, or undefined when the statement is not one (EMQX: not_insert_sql). */
export function parseInsert(sql: string): InsertParts | undefined {
  const head = HEAD.exec(sql)
  if (!head) return undefined
  const rest = sql.slice(head[0].length)
  if (!rest.startsWith('(')) return undefined
  let depth = 0
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '(') depth++
    else if (rest[i] === ')' && --depth === 0) return rest.slice(i + 1).trim() === '' ? { insert: head[1], row: rest.slice(0, i + 1) } : undefined
  }
  return undefined
}

/** The statement's kind by its first word (emqx_utils_sql:get_statement_type). */
export function statementType(sql: string): string {
  const word = /^\s*([a-zA-Z]+)/.exec(sql)?.[1].toLowerCase()
  return word && ['select', 'insert', 'update', 'delete'].includes(word) ? word : 'unknown'
}
