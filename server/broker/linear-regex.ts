// Regular expressions that operators save (ban patterns, topic rewrite rules) run on client ids,
// usernames and topics the broker did not choose. They are matched in time linear in the text
// (RE2 semantics through re2js), so no saved pattern can stall the broker on a crafted input:
// `(a+)+$` against a 29-character client id took V8's backtracking engine 4 s.
//
// RE2 is PCRE (what EMQX's `re` runs) without what needs backtracking: look-around `(?=`, `(?!`,
// `(?<=`, `(?<!`, backreferences `\1`, atomic groups `(?>`, possessive quantifiers `a++`, recursion,
// `\Z` (use `\z` or `$`), and repeat counts over 1000. Such patterns are refused when they are
// saved, with RE2's reason; everything else (classes, `\d`, `\w`, anchors, `(?i)`, named groups)
// means the same.
import { RE2JS } from 're2js'

export interface LinearRegex {
  /** Whether the pattern matches anywhere in `text` (as EMQX's `re:run(Text, RE) =/= nomatch`). */
  test(text: string): boolean
  /** The first match's groups, 0 the whole match (undefined for a group that took no part), or null. */
  exec(text: string): (string | undefined)[] | null
}

/** Compiled patterns by source: bans are checked on every CONNECT, compiling is the slow part. */
const compiled = new Map<string, LinearRegex>()
const MAX_CACHED = 1000

/** The compiled pattern; throws with RE2's reason when it is not a pattern RE2 accepts. */
export function compileLinearRegex(source: string): LinearRegex {
  let pattern = compiled.get(source)
  if (pattern) return pattern
  const re2 = RE2JS.compile(source)
  pattern = {
    test: (text) => re2.test(text),
    exec: (text) => {
      const matcher = re2.matcher(text)
      if (!matcher.find()) return null
      const groups: (string | undefined)[] = []
      for (let i = 0; i <= matcher.groupCount(); i++) groups.push(matcher.group(i) ?? undefined)
      return groups
    },
  }
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!)
  compiled.set(source, pattern)
  return pattern
}

/** Why `source` cannot be a saved pattern (RE2's message), or undefined when it can. */
export function linearRegexProblem(source: string): string | undefined {
  try {
    compileLinearRegex(source)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
