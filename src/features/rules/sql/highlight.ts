// Highlighting of EMQX's rule SQL: each token of sqlLexer gets a class (`rsql-keyword`, `rsql-fn`,
// `rsql-event` for `"$events/..."`, `rsql-topic` for other quoted names...), coloured by
// ruleSql.css through the app's light and dark CSS variables.
import { RangeSetBuilder } from '@codemirror/state'
import { Decoration, ViewPlugin, type DecorationSet, type EditorView, type ViewUpdate } from '@codemirror/view'
import { RULE_FUNCTIONS_BY_NAME } from './functionReference.ts'
import { lexSql, type SqlToken } from './sqlLexer.ts'

/** The class of each token; a word followed by `(` is a function call, a known one or not. */
export function tokenClasses(text: string): { from: number; to: number; cls: string }[] {
  const tokens = lexSql(text)
  return tokens.flatMap((token, i): { from: number; to: number; cls: string }[] => {
    const cls = classOf(token, tokens[i + 1])
    return cls ? [{ from: token.from, to: token.to, cls }] : []
  })
}

function classOf(token: SqlToken, next: SqlToken | undefined): string | undefined {
  switch (token.kind) {
    case 'keyword':
      return 'rsql-keyword'
    case 'operator':
      return 'rsql-operator'
    case 'string':
      return 'rsql-string'
    case 'name':
      return token.text.startsWith('"$events/') ? 'rsql-event' : 'rsql-topic'
    case 'number':
    case 'range':
      return 'rsql-number'
    case 'comment':
      return 'rsql-comment'
    case 'word':
      if (next?.text === '(') return RULE_FUNCTIONS_BY_NAME.has(token.text) ? 'rsql-fn' : 'rsql-fn-unknown'
      return undefined
    default:
      return undefined
  }
}

const marks = new Map<string, Decoration>()
function mark(cls: string): Decoration {
  let decoration = marks.get(cls)
  if (!decoration) marks.set(cls, (decoration = Decoration.mark({ class: cls })))
  return decoration
}

function decorate(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>()
  // A rule's SQL is a few lines: the whole of it is read, so strings over several lines stay right.
  for (const { from, to, cls } of tokenClasses(view.state.doc.toString())) builder.add(from, to, mark(cls))
  return builder.finish()
}

export const ruleSqlHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet
    constructor(view: EditorView) {
      this.decorations = decorate(view)
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = decorate(update.view)
    }
  },
  { decorations: (plugin) => plugin.decorations },
)
