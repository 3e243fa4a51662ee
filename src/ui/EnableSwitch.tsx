// A row's or a detail header's enable switch: it runs the area's enable or disable command on the
// thing's id (a disable that is dangerous asks first, as its command says), and waits while it runs.
import type { ArgsSchema, Command } from '../../commands/define.ts'
import { useRunCommand } from '../app/commands/useRunCommand.ts'
import { useRowBusy } from './useRowBusy.ts'

export function EnableSwitch<E extends ArgsSchema, D extends ArgsSchema>({
  id,
  enabled,
  label,
  enable,
  disable,
  arg = 'id',
}: {
  id: string
  enabled: boolean
  /** Translated accessible name ('Enable rule r1'). */
  label: string
  /** Commands taking `id` (or the argument `arg` names: a webhook's `name`). */
  enable: Command<E, unknown>
  disable: Command<D, unknown>
  arg?: string
}) {
  const run = useRunCommand()
  const { busy, during } = useRowBusy()
  return (
    <button
      type="button"
      role="switch"
      className="switch"
      data-row-action
      aria-checked={enabled}
      aria-label={label}
      disabled={busy.has(id)}
      onClick={() => void during(id, () => (enabled ? run(disable, { [arg]: id }) : run(enable, { [arg]: id })))}
    />
  )
}
