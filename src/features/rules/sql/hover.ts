// Hovering a function call in the editor shows its signature and line of help, as completion does.
import type { Extension } from '@codemirror/state'
import { hoverTooltip } from '@codemirror/view'
import { RULE_FUNCTIONS_BY_NAME, helpKeyOf, signatureOf } from './functionReference.ts'
import { lexSql } from './sqlLexer.ts'

/** The known function called at `offset` of `line`: its name's range in the line. */
export function functionAt(line: string, offset: number): { name: string; from: number; to: number } | undefined {
  const tokens = lexSql(line)
  const i = tokens.findIndex((token) => token.from <= offset && offset <= token.to && token.kind === 'word')
  const token = tokens[i]
  if (!token || tokens[i + 1]?.text !== '(' || !RULE_FUNCTIONS_BY_NAME.has(token.text)) return undefined
  return { name: token.text, from: token.from, to: token.to }
}

export function functionHover(t: () => (key: string) => string): Extension {
  return hoverTooltip((view, pos) => {
    const line = view.state.doc.lineAt(pos)
    const found = functionAt(line.text, pos - line.from)
    const fn = found && RULE_FUNCTIONS_BY_NAME.get(found.name)
    if (!found || !fn) return null
    return {
      pos: line.from + found.from,
      end: line.from + found.to,
      above: true,
      create() {
        const dom = document.createElement('div')
        dom.className = 'rule-sql-hover'
        const signature = document.createElement('code')
        signature.textContent = signatureOf(fn)
        const help = document.createElement('div')
        help.textContent = t()(helpKeyOf(fn.name))
        dom.append(signature, help)
        return { dom }
      },
    }
  })
}
