// The regular expressions of clientid_re and username_re bans, matched in time linear in the client
// id or username (RE2 semantics through re2js), so no pattern an operator saves can stall the
// broker on a crafted client id: `(a+)+$` against 29 characters took V8's backtracking engine 4 s.
//
// RE2 is PCRE (what EMQX's `re` runs) without what needs backtracking: look-around `(?=`, `(?!`,
// `(?<=`, `(?<!`, backreferences `\1`, atomic groups `(?>`, possessive quantifiers `a++`, recursion,
// `\Z` (use `\z` or `$`), and repeat counts over 1000. Such patterns are refused when the ban is
// created, with RE2's reason; everything else (classes, `\d`, `\w`, anchors, `(?i)`, named groups)
// means the same.
import { RE2JS } from 're2js'

export interface BanPattern {
  /** Whether the pattern matches anywhere in `text` (as EMQX's `re:run(Text, RE) =/= nomatch`). */
  test(text: string): boolean
}

/** Compiled patterns by source: bans are checked on every CONNECT, compiling is the slow part. */
const compiled = new Map<string, BanPattern>()
const MAX_CACHED = 1000

/** The compiled pattern; throws with RE2's reason when it is not a pattern RE2 accepts. */
export function compileBanPattern(source: string): BanPattern {
  let pattern = compiled.get(source)
  if (pattern) return pattern
  pattern = RE2JS.compile(source)
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!)
  compiled.set(source, pattern)
  return pattern
}

/** Why `source` cannot be a ban pattern (RE2's message), or undefined when it can. */
export function banPatternProblem(source: string): string | undefined {
  try {
    compileBanPattern(source)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
