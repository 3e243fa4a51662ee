// Rows a list command prints into the terminal pane as fixed-width lines: every column but the
// last padded to its widest cell (at most `maxWidth`), two spaces between, no trailing blanks.
import type { CommandContext } from './define.ts'

export function columnLines(cells: readonly (readonly string[])[], maxWidth = 48): string[] {
  const columns = Math.max(0, ...cells.map((row) => row.length))
  const widths = Array.from({ length: columns - 1 }, (_, i) => Math.min(maxWidth, Math.max(...cells.map((row) => (row[i] ?? '').length))))
  return cells.map((row) => row.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]) : cell)).join('  ').trimEnd())
}

/** In the browser the lines go to the terminal pane under `source`; the CLI prints the command's result instead. */
export function printLines(ctx: CommandContext, source: string, lines: readonly string[]): void {
  if (!ctx.ui || !ctx.live) return
  const stream = ctx.live.open(source)
  try {
    for (const line of lines) stream.line(line)
  } finally {
    stream.close()
  }
}
