export interface RuleFunction {
  /** The argument counts EMQX accepts. */
  readonly arities: readonly number[]
  /** Set when the function also takes any count from this one up (sprintf). */
  readonly variadicFrom?: number
  readonly impl: (...args: unknown[]) => unknown
}

export type RuleFunctionGroup = Readonly<Record<string, RuleFunction>>

export function ruleFn(arities: readonly number[], impl: (...args: unknown[]) => unknown): RuleFunction {
  return { arities, impl }
}
