// `run(command, rawArgs, options?)` for components: the runner bound to the app's API, browser
// effects, confirmation dialog, notifications and terminal log.
import { useStore } from 'jotai'
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import type { ArgsSchema, Command } from '../../../commands/define.ts'
import { markChanged } from '../../state/areaChanges.ts'
import { recordHistory } from '../../state/history.ts'
import { notify } from '../../state/notifications.ts'
import { liveStreams } from '../../state/liveStreams.ts'
import { terminalLog } from '../../state/terminalLog.ts'
import { requestConfirm } from '../../ui/Confirm.tsx'
import { useUiEffects } from '../uiEffects.ts'
import { useApi } from '../useApi.ts'
import { executeBulk, executeCommand, type BulkRow, type RunOptions, type RunnerDeps, type RunResult } from './runner.ts'

export type { RunOptions, RunResult, RunError, BulkRow } from './runner.ts'

export type RunCommand = <S extends ArgsSchema, R>(
  command: Command<S, R>,
  rawArgs?: Record<string, unknown>,
  options?: RunOptions,
) => Promise<RunResult<R>>

export function useRunCommand(): RunCommand {
  const api = useApi()
  const ui = useUiEffects()
  const store = useStore()
  const { t } = useTranslation()

  return useCallback<RunCommand>(
    (command, rawArgs = {}, options) =>
      executeCommand(
        command,
        rawArgs,
        {
          ctx: { api, ui, live: liveStreams.output((text) => t(text.key, text.values ?? {})) },
          confirm: (request) => requestConfirm(store, request),
          notify: (input) => void notify(store, input),
          log: terminalLog,
          t: (key, values) => t(key, values ?? {}),
          changed: (areas) => markChanged(store, areas),
          record: (entry) => void recordHistory(store, entry),
        },
        options,
      ),
    [api, ui, store, t],
  )
}

export type RunBulk = <S extends ArgsSchema, R>(
  command: Command<S, R>,
  rows: readonly { key: string; args: Record<string, unknown> }[],
  options?: RunOptions,
) => Promise<BulkRow<R>[]>

/** `runBulk(command, rows)`: one command over the selected rows, one confirmation, a result per row. */
export function useRunBulk(): RunBulk {
  const api = useApi()
  const ui = useUiEffects()
  const store = useStore()
  const { t } = useTranslation()
  return useCallback<RunBulk>(
    (command, rows, options) => {
      const deps: RunnerDeps = {
        ctx: { api, ui },
        confirm: (request) => requestConfirm(store, request),
        notify: (input) => void notify(store, input),
        log: terminalLog,
        t: (key, values) => t(key, values ?? {}),
        changed: (areas) => markChanged(store, areas),
        // Each row is its own history entry, as if run one by one.
        record: (entry) => void recordHistory(store, entry),
      }
      return executeBulk(command, rows, deps, options)
    },
    [api, ui, store, t],
  )
}
