// An update command's arguments say how a form shows them: labels, units, help, and that an empty
// field keeps the current value (not 'optional', and a flag left alone does not turn a setting off).
import { describe, expect, it } from 'vitest'
import { describeArgs, validateArgs } from '../commands/args.ts'
import { updateSlowSubs } from '../commands/slowSubs.ts'
import { initialValues } from '../src/ui/SchemaForm.tsx'

describe('slowSubs.update arguments', () => {
  const fields = describeArgs(updateSlowSubs)
  const field = (name: string) => fields.find((f) => f.name === name)!

  it('carry a label, help and unit for each setting, and keep the current value when left empty', () => {
    expect(field('top_k_num')).toMatchObject({
      label: 'form.field.slowSubsTopK',
      description: 'form.hint.slowSubsTopK',
      unit: 'form.unit.records',
      min: 1,
      max: 1000,
      required: false,
      keepsCurrent: true,
    })
    expect(field('enable')).toMatchObject({ kind: 'boolean', description: 'form.hint.slowSubsEnable', keepsCurrent: true })
    // A pipe wrapped by keepsCurrent still shows what the inner one says (durationArg's kind and help).
    expect(field('expire_interval')).toMatchObject({ kind: 'duration', description: 'form.hint.slowSubsExpireInterval', keepsCurrent: true })
    expect(fields.every((f) => f.keepsCurrent && !f.required)).toBe(true)
  })

  it('start empty in the palette, so running it with one field changes only that setting', () => {
    const values = initialValues(fields)
    expect(values).toEqual({ enable: '', threshold: '', top_k_num: '', expire_interval: '', stats_type: '' })
    const checked = validateArgs(updateSlowSubs, { ...values, top_k_num: '20' })
    expect(checked).toEqual({ ok: true, value: { top_k_num: 20 } })
  })
})
