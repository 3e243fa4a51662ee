// Where a source goes when moved one step, to an end, or dropped on another: the move command's
// arguments, or null when it is there already.
export type MoveStep = 'up' | 'down' | 'top' | 'bottom'

export interface MoveArgs {
  type: string
  position: 'front' | 'rear' | 'before' | 'after'
  target?: string
}

export function stepMove(order: readonly string[], type: string, step: MoveStep): MoveArgs | null {
  const at = order.indexOf(type)
  if (at < 0) return null
  if (step === 'top') return at === 0 ? null : { type, position: 'front' }
  if (step === 'bottom') return at === order.length - 1 ? null : { type, position: 'rear' }
  if (step === 'up') return at === 0 ? null : { type, position: 'before', target: order[at - 1] }
  return at === order.length - 1 ? null : { type, position: 'after', target: order[at + 1] }
}

/** Dropped on `target`: it takes the target's place, the target moving toward where it came from. */
export function dropMove(order: readonly string[], type: string, target: string): MoveArgs | null {
  const from = order.indexOf(type)
  const to = order.indexOf(target)
  if (from < 0 || to < 0 || from === to) return null
  return { type, position: from < to ? 'after' : 'before', target }
}

const KEY_STEPS: Record<string, MoveStep> = { ArrowUp: 'up', ArrowDown: 'down', Home: 'top', End: 'bottom' }

/** Alt+ArrowUp/Down one step, Alt+Home/End to an end. */
export function stepOfKey(event: { key: string; altKey: boolean }): MoveStep | null {
  if (!event.altKey) return null
  return KEY_STEPS[event.key] ?? null
}
