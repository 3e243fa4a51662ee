// The CodeMirror 6 editor of a rule's SQL: EMQX rule SQL highlighting, completion, the server's
// syntax errors underlined, Ctrl/Cmd+Enter to run the test. The parent holds the text; templates
// and the function reference write into it through the handle.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionSource } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { bracketMatching } from '@codemirror/language'
import { lintKeymap } from '@codemirror/lint'
import { EditorState, Prec, type Extension } from '@codemirror/state'
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view'
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react'
import { ruleSqlHighlight } from './highlight.ts'

export interface SqlEditorHandle {
  /** Replaces the selection with `text` and focuses the editor. */
  insert(text: string): void
  focus(): void
}

export interface SqlEditorProps {
  value: string
  onChange(value: string): void
  onRun(): void
  completions: CompletionSource
  /** The linter extension (it asks the server). */
  lint: Extension
  /** Tooltips on hover (a function's signature and help). */
  hover: Extension
  id?: string
  label: string
  placeholderText: string
}

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--bg-elevated)', color: 'var(--text)', fontSize: '13px' },
  '.cm-content': { fontFamily: 'var(--font-mono, ui-monospace, monospace)', caretColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-sunken)', color: 'var(--text-subtle)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--bg-hover)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--primary-soft)' },
  '.cm-tooltip': { backgroundColor: 'var(--bg-elevated)', color: 'var(--text)', border: '1px solid var(--border-strong)' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--primary-soft)', color: 'var(--text)' },
  '.cm-completionDetail': { color: 'var(--text-muted)', fontStyle: 'normal', marginLeft: '1em' },
  '.cm-completionInfo': { maxWidth: '320px' },
  '.cm-placeholder': { color: 'var(--text-subtle)' },
})

export const SqlEditor = forwardRef<SqlEditorHandle, SqlEditorProps>(function SqlEditor(props, ref) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  // The latest callbacks, read by the editor built once.
  const latest = useRef(props)
  latest.current = props

  useEffect(() => {
    if (!host.current) return
    const runKeys = Prec.highest(
      keymap.of([
        {
          key: 'Mod-Enter',
          run: () => {
            latest.current.onRun()
            return true
          },
        },
      ]),
    )
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          runKeys,
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          closeBrackets(),
          ruleSqlHighlight,
          autocompletion({ override: [(context) => latest.current.completions(context)] }),
          latest.current.lint,
          latest.current.hover,
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap, indentWithTab]),
          placeholder(latest.current.placeholderText),
          theme,
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': latest.current.label, ...(latest.current.id ? { id: latest.current.id } : {}) }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString())
          }),
        ],
      }),
    })
    view.current = editor
    return () => {
      editor.destroy()
      view.current = null
    }
  }, [])

  // A new value from outside (a template, the form reset) replaces the text.
  useEffect(() => {
    const editor = view.current
    if (editor && editor.state.doc.toString() !== props.value)
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value } })
  }, [props.value])

  useImperativeHandle(ref, () => ({
    insert(text: string) {
      const editor = view.current
      if (!editor) return
      editor.dispatch(editor.state.replaceSelection(text))
      editor.focus()
    },
    focus() {
      view.current?.focus()
    },
  }))

  return <div className="rule-sql-editor" ref={host} />
})
