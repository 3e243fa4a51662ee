// A command is one operation of the console, declared once: the palette, buttons, shortcuts,
// pasted scripts and the CLI all read this same object. No React and no DOM here.
import type * as v from 'valibot'
import type { Api } from '../src/api/index.ts'
import type { TestClientManager } from '../src/testclient/manager.ts'
import type { Text } from './commandError.ts'
import type { TableData } from './format/table.ts'

export { CommandError, type Text } from './commandError.ts'

/** Effects only the browser can perform; the CLI runs without them. */
export interface UiEffects {
  navigate(to: string): void
  setSetting(key: 'lang', value: 'en' | 'zh'): void
  setSetting(key: 'theme', value: 'light' | 'dark'): void
  setSetting(key: 'syncOsTheme', value: boolean): void
  logout(): Promise<void>
  /** Opens the `?` sheet of keyboard shortcuts. */
  showShortcuts?(): void
  /** The palette's command history and script view (commands/history.ts). */
  history?: HistoryEffects
  /** The WebSocket test client's connections (loaded on first use). */
  testClient?(): Promise<TestClientManager>
  /** Saves a file the user downloads (a data backup) where the browser saves downloads. */
  saveFile?(filename: string, data: Blob): void
}

export interface HistoryEffects {
  /** Opens the palette on the history. */
  show(): void
  /** Opens the palette's script view holding `text`. */
  openScript(text: string): void
  /** Copies the entries numbered `from`..`to` (open ends reach the ends) as a script; resolves to how many. */
  copy(range: { from?: number; to?: number }): Promise<number>
  clear(): void
}

/** An area of the API, named as createApi names it (`clients`, `retainer`): what a screen reads and a command changes. */
export type ApiArea = Exclude<keyof Api, 'http'>

export interface CommandContext {
  api: Api
  ui?: UiEffects
  /** Where a command that streams while it runs (rule.tap) writes its lines: the terminal pane, or the CLI's stdout. */
  live?: LiveOutput
}

/** Lines a streaming command prints as they arrive, and what stops it. */
export interface LiveOutput {
  /** Opens one stream under `source` (the command id). */
  open(source: string): LiveStream
  /**
   * The host the broker answers MQTT on when there is no test client to copy (the CLI: the host of
   * the API URL); the command finds the port from the listeners.
   */
  brokerHost?: string
}

export interface FrameOptions {
  width: number
  colour: boolean
  translate(text: Text): string
}

/** A whole screen of output that replaces the one before (watch redraws its table in place). */
export interface LiveFrame {
  /** The frame as lines (no line ends) fitting `width` columns; `colour` allows ANSI SGR. */
  render(options: FrameOptions): string[]
  /** The data behind it, for output read by programs (the CLI's --json). */
  data: unknown
}

export interface LiveStream {
  /** One line of output as it arrives: raw text (an output, shown as it is), or a translatable note. */
  line(text: string | Text): void
  /**
   * A frame replacing the previous one where the output can redraw in place (the terminal pane, a
   * TTY); elsewhere it follows as a new block. Left out, the command prints the frame's lines.
   */
  frame?(frame: LiveFrame): void
  /** Aborted when the operator stops the stream: the terminal pane closed, its Stop button, Ctrl+C in the CLI. */
  readonly signal: AbortSignal
  /** The command is done with the stream (whatever stopped it). */
  close(): void
}

/** Every command's arguments are an object schema; fields become the argument form. */
export type ArgsSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>

/** Suggestions for one argument; `args` are the other arguments as typed so far (raw strings). */
export type Completer = (api: Api, query: string, signal: AbortSignal, args?: Readonly<Record<string, string>>) => Promise<string[]>

export interface Command<S extends ArgsSchema = ArgsSchema, R = unknown> {
  /** Stable dotted id, e.g. `client.kick`; scripts rely on it. */
  id: string
  /** i18n key of the title. */
  title: string
  /** i18n key of the group the palette shows it under, e.g. `cmdGroup.clients`. */
  group: string
  /** Extra words the palette matches (both languages are matched through the title). */
  aliases?: string[]
  args: S
  /** Argument names that may be given without `key=` in scripts, in order. */
  positional?: (keyof v.InferInput<S> & string)[]
  /**
   * The argument that takes the rest of the line as written (`live.watch clients.list
   * conn_state=connected interval=5s`: the command line to watch): every word from the first one on,
   * except `name=` words of this command's own arguments at the end of the line.
   */
  rest?: keyof v.InferInput<S> & string
  /** A bare word a line may start with instead of the id (`watch`, `sub`); it must not be an id. */
  word?: string
  /** Kick, delete, disable, stop, clear, uninstall: confirmed before running. */
  danger?: boolean
  /** Ask before running even though not dangerous (logout: 'Confirm to logout'). */
  confirm?: boolean
  /** Key sequence such as `g c` or `mod+k`. */
  shortcut?: string
  /** True when the command only makes sense in the browser (navigation, theme). */
  needsUi?: boolean
  /** The API areas a successful run changes: screens reading any of them read again. */
  changes?: readonly ApiArea[]
  /** A command that only reads from the server (a check, a query): it changes no area. */
  readOnly?: boolean
  /** Live suggestions for an argument, from the API. */
  complete?: Partial<Record<keyof v.InferInput<S> & string, Completer>>
  /**
   * Arguments whose completions only suggest (a new ban's `who`, a topic to publish to): the value
   * need not be among them, so a dry run does not look it up.
   */
  suggestOnly?: (keyof v.InferInput<S> & string)[]
  /** Arguments that are secrets (a password): masked in the terminal, never kept in the history. */
  secretArgs?: (keyof v.InferInput<S> & string)[]
  /** What a confirmation or plan line says this run will do. */
  describe?(args: v.InferOutput<S>): Text
  run(ctx: CommandContext, args: v.InferOutput<S>): Promise<R>
  /**
   * Runs several rows in one request (a bulk endpoint); a bulk run uses it instead of `run` per row.
   * Answers each row's result, or an Error for a row that failed.
   */
  runMany?(ctx: CommandContext, rows: v.InferOutput<S>[]): Promise<Array<R | Error>>
  /**
   * A read command's result as a table: the terminal pane prints it fitted to its width, the CLI to its
   * own. Undefined for a result with no rows to show (the step line shows it compactly instead).
   */
  table?(result: R): TableData | undefined
  /** What the success notification and the terminal line say about the result (default: nothing). */
  resultText?(result: R): Text
  /**
   * The result holds a secret shown this once (an API key's secret): its notification stays until
   * dismissed, and the history keeps no result of this command.
   */
  secretResult?: boolean
}

export type AnyCommand = Command<ArgsSchema, unknown>

export function defineCommand<S extends ArgsSchema, R>(command: Command<S, R>): Command<S, R> {
  return command
}
