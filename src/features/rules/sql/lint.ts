// The SQL check under the editor: after a pause in typing the server parses the SQL (a dry run of
// POST /rule_test), and a syntax error it answers is underlined where its parser stopped.
import { linter, type Diagnostic } from '@codemirror/lint'
import type { Extension } from '@codemirror/state'
import { locateSqlError, type ParseCheck } from './errorPosition.ts'

export function ruleSqlLinter(check: ParseCheck): Extension {
  return linter(
    async (view): Promise<Diagnostic[]> => {
      const sql = view.state.doc.toString()
      if (!sql.trim()) return []
      const message = await check(sql)
      if (message === null) return []
      const range = await locateSqlError(sql, message, check)
      if (!range) return []
      const length = view.state.doc.length
      const from = Math.min(range.from, length)
      return [{ from, to: Math.min(Math.max(range.to, from + 1), length), severity: 'error', message: range.message, source: 'EMQX' }]
    },
    { delay: 600 },
  )
}
