// `watch <command line> interval=5s`: re-runs a read command and redraws its table in place (the
// terminal pane, a TTY; new blocks elsewhere) until it is stopped: Ctrl+C, the pane's Stop button,
// closing the pane. Only read commands can be watched, so a watch never changes anything.
import * as v from 'valibot'
import { durationArg, parseDuration } from './args.ts'
import { CommandError, defineCommand, type CommandContext, type LiveFrame } from './define.ts'
import { cut, renderTable } from './format/table.ts'
import type { Text } from './commandError.ts'
import { sleep } from './sleep.ts'

/** The shortest pause between two runs: a watch must not hammer the API. */
export const MIN_WATCH_MS = 1000

export interface WatchResult {
  /** How many times the command ran. */
  runs: number
}

/** The watched line planned as a script line of one read command, or why it cannot be watched. */
async function planWatched(line: string) {
  // Loaded when run: the plan reaches the registry, which lists this command.
  const { planScript } = await import('./script/plan.ts')
  const plan = planScript(line)
  if (!plan.ok) {
    const [first] = plan.errors
    throw new CommandError({ key: 'cmd.watch.invalid', values: { column: first.column } }, first)
  }
  if (plan.steps.length !== 1) throw new CommandError({ key: 'cmd.watch.oneLine' })
  const [step] = plan.steps
  if (!step.command.readOnly || !step.command.table) throw new CommandError({ key: 'cmd.watch.notRead', values: { id: step.command.id } })
  return step
}

export const watchCommand = defineCommand({
  id: 'live.watch',
  word: 'watch',
  title: 'cmd.watch.title',
  group: 'cmdGroup.live',
  aliases: ['watch', 'refresh', '监视'],
  readOnly: true,
  args: v.object({
    command: v.pipe(v.string(), v.title('cmd.watch.field.command'), v.description('cmd.watch.hint.command'), v.trim(), v.minLength(1, 'err.required')),
    interval: v.optional(
      v.pipe(
        durationArg('cmd.watch.field.interval'),
        v.check((text: string) => (parseDuration(text) ?? 0) >= MIN_WATCH_MS, 'cmd.watch.tooOften'),
      ),
      '5s',
    ),
  }),
  rest: 'command',
  positional: ['command'],
  describe: ({ command, interval }) => ({ key: 'cmd.watch.describe', values: { command, interval } }),
  resultText: (result: WatchResult) => ({ key: 'cmd.watch.result', values: { runs: result.runs } }),
  async run(ctx: CommandContext, { command, interval }): Promise<WatchResult> {
    const step = await planWatched(command)
    const stream = ctx.live?.open('live.watch')
    if (!stream) throw new CommandError({ key: 'cmd.watch.noOutput' })
    const every = parseDuration(interval) ?? 5000
    let runs = 0
    try {
      while (!stream.signal.aborted) {
        const started = Date.now()
        let result: unknown
        let failure: Text | undefined
        try {
          result = await step.command.run(ctx, step.args as never)
        } catch (error) {
          failure = error instanceof CommandError ? error.text : { key: 'cmd.watch.failed', values: { message: error instanceof Error ? error.message : String(error) } }
        }
        if (stream.signal.aborted) break
        runs++
        const table = failure ? undefined : step.command.table!(result) ?? { columns: [], rows: [] }
        const at = new Date(started).toISOString().slice(11, 19)
        const frame: LiveFrame = {
          data: failure ?? result,
          render: ({ width, colour, translate }) => {
            const [dim, red, reset] = colour ? ['\x1b[90m', '\x1b[31m', '\x1b[0m'] : ['', '', '']
            const head = `${dim}${cut(translate({ key: 'cmd.watch.head', values: { time: at, interval, line: step.text } }), width)}${reset}`
            return table ? [head, ...renderTable(table, { width, colour }, translate)] : [head, `${red}${translate(failure!)}${reset}`]
          },
        }
        if (stream.frame) stream.frame(frame)
        // An output that cannot redraw gets the lines, its notes still translated where it shows them.
        else for (const line of frame.render({ width: 120, colour: false, translate: (text) => text.key })) stream.line(line)
        await sleep(Math.max(0, every - (Date.now() - started)), stream.signal)
      }
      return { runs }
    } finally {
      stream.close()
    }
  },
})
