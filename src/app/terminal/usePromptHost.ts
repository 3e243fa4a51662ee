// The prompt's host in the browser: lines run through the app's command runner (useRunCommand:
// confirmation dialog, history, terminal line), completion asks the live API, the history is the
// command history written back as script lines, Ctrl+C stops the live streams and the script under
// way. `hostFor` is called once, when xterm is ready; it always reaches the latest hooks' values.
import { useStore } from 'jotai'
import { useCallback, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyCommand, LiveOutput, Text } from '../../../commands/define.ts'
import { getCommand } from '../../../commands/registry.ts'
import { formatScriptLine } from '../../../commands/script/execute.ts'
import { historyAtom } from '../../state/history.ts'
import { liveStreams } from '../../state/liveStreams.ts'
import { terminalLog } from '../../state/terminalLog.ts'
import { requestConfirm } from '../../ui/Confirm.tsx'
import { describeRun } from '../commands/runner.ts'
import { useRunCommand } from '../commands/useRunCommand.ts'
import { useUiEffects } from '../uiEffects.ts'
import { useApi } from '../useApi.ts'
import { completeLine } from '../../../commands/completeLine.ts'
import type { PromptHost } from './prompt.ts'
import { runPromptLine, runPromptScript, type PromptRunnerDeps } from './promptRunner.ts'

export interface PromptOutput {
  write(text: string): void
  columns(): number
  /** Output above the prompt (log lines waiting to be drawn go first). */
  print(text: string): void
  /** Counts prints: a frame is redrawn in place only when nothing was printed after it. */
  printCount(): number
}

/**
 * The live streams a prompt line starts, whose frames (watch's table) are redrawn in place: the
 * cursor goes up over the previous frame when nothing was printed under it since.
 */
export function framedOutput(base: LiveOutput, output: PromptOutput, translate: (text: Text) => string): LiveOutput {
  return {
    ...base,
    open(source) {
      const stream = base.open(source)
      let rows = 0
      let mark = -1
      return {
        signal: stream.signal,
        line: (text) => stream.line(text),
        close: () => stream.close(),
        frame(frame) {
          output.print('') // log lines waiting to be drawn come first
          const lines = frame.render({ width: output.columns(), colour: true, translate })
          if (rows > 0 && output.printCount() === mark) output.write(`\x1b[${rows}A\r\x1b[J`)
          output.print(lines.map((line) => `${line}\r\n`).join(''))
          rows = lines.length
          mark = output.printCount()
        },
      }
    },
  }
}

export function usePromptHost(): (output: PromptOutput) => PromptHost {
  const api = useApi()
  const ui = useUiEffects()
  const run = useRunCommand()
  const store = useStore()
  const { t } = useTranslation()
  const latest = useRef({ api, ui, run, store, t })
  latest.current = { api, ui, run, store, t }

  return useCallback((output: PromptOutput): PromptHost => {
    let running: AbortController | null = null
    const deps = (signal: AbortSignal): PromptRunnerDeps => {
      const { api, ui, run, store, t } = latest.current
      const translate = (key: string, values?: Record<string, string | number>) => t(key, values ?? {})
      const tr = (text: Text) => t(text.key, text.values ?? {})
      return {
        ctx: { api, ui, live: framedOutput(liveStreams.output(tr), output, tr) },
        run: (command: AnyCommand, raw, options) => run(command, raw, options),
        confirmScript: (steps) => {
          const dangerous = steps.filter((step) => step.confirm)
          return requestConfirm(store, {
            title: t('scriptView.title'),
            text: dangerous.length ? t('scriptView.confirmTitle', { count: dangerous.length }) : t('terminal.confirmScript', { count: steps.length }),
            ...(dangerous.length ? { items: dangerous.map((step) => describeRun(step.command, step.args, translate)), danger: true } : {}),
            confirmLabel: t('scriptView.confirmRun'),
          })
        },
        print: output.print,
        columns: output.columns,
        t: translate,
        signal,
      }
    }
    const runWith = async (work: (deps: PromptRunnerDeps) => Promise<void>) => {
      const controller = new AbortController()
      running = controller
      try {
        await work(deps(controller.signal))
      } catch (error) {
        output.print(`\x1b[31m${String(error instanceof Error ? error.message : error)}\x1b[0m\r\n`)
      } finally {
        running = null
      }
    }
    // History entries a typed line made are recalled as it was typed (`watch clients.list`), once.
    const typedRuns: { line: string; after: number; upTo: number }[] = []
    const newestSeq = () => latest.current.store.get(historyAtom).at(-1)?.seq ?? 0
    return {
      write: output.write,
      columns: output.columns,
      run: async (line) => {
        const after = newestSeq()
        await runWith((d) => runPromptLine(line, d))
        const upTo = newestSeq()
        if (upTo > after) typedRuns.push({ line, after, upTo })
      },
      runScript: (text) => runWith((d) => runPromptScript(text, d)),
      complete: (line, cursor, signal) => completeLine(line, cursor, latest.current.api, signal),
      history: () => {
        const recalled = new Set<object>()
        return latest.current.store.get(historyAtom).flatMap((entry) => {
          const typed = typedRuns.find((run) => entry.seq > run.after && entry.seq <= run.upTo)
          if (typed) {
            if (recalled.has(typed)) return []
            recalled.add(typed)
            return [typed.line]
          }
          const command = getCommand(entry.id)
          return command ? [formatScriptLine(command, entry.args)] : []
        })
      },
      interrupt: () => {
        liveStreams.stopAll()
        running?.abort()
      },
      clear: () => terminalLog.clear(),
      // Read when drawn, so a change of language reaches the search label.
      get labels() {
        return { search: latest.current.t('terminal.search'), searchFailed: latest.current.t('terminal.searchFailed') }
      },
    }
  }, [])
}
