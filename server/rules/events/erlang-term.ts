// Erlang's `~0tp` printing of the few terms EMQX's `Bad Arguments: …` messages hold (hocon's
// validation error maps): atoms, strings (char lists), binaries, numbers, lists and maps. JSON values
// print as EMQX received them: text as binaries, objects as maps with binary keys.

/** An atom (`validation_error`, `event_type`), as opposed to text, which prints as a binary. */
export class Atom {
  readonly name: string
  constructor(name: string) {
    this.name = name
  }
}

/** An Erlang string (a char list such as a hocon path `"rule_test.context"`). */
export class CharList {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** A tuple (`{<<"content-type">>,<<"text/plain">>}`, an HTTP header as ehttpc takes it). */
export class Tuple {
  readonly items: readonly unknown[]
  constructor(items: readonly unknown[]) {
    this.items = items
  }
}

const atom = (name: string) => (/^[a-z][A-Za-z0-9_@]*$/.test(name) ? name : `'${name.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`)
const escaped = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')

function binary(text: string): string {
  // Outside Latin-1 a binary prints with its UTF-8 marker, as ~tp shows one.
  return /[^\u0000-\u00ff]/.test(text) ? `<<"${escaped(text)}"/utf8>>` : `<<"${escaped(text)}">>`
}

/** Compares two map keys as Erlang orders terms: atoms before binaries, each by their characters. */
function keyOrder(a: string | Atom, b: string | Atom): number {
  const rank = (k: string | Atom) => (k instanceof Atom ? 0 : 1)
  if (rank(a) !== rank(b)) return rank(a) - rank(b)
  const x = a instanceof Atom ? a.name : a
  const y = b instanceof Atom ? b.name : b
  return x < y ? -1 : x > y ? 1 : 0
}

/** A map whose keys are atoms (EMQX's own error maps). */
export function atomMap(entries: Record<string, unknown>): Map<Atom, unknown> {
  return new Map(Object.entries(entries).map(([k, v]) => [new Atom(k), v]))
}

export function formatTerm(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (value === null) return 'null'
  if (value instanceof Atom) return atom(value.name)
  if (value instanceof CharList) return `"${escaped(value.text)}"`
  if (typeof value === 'string') return binary(value)
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatFloat(value)
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (Array.isArray(value)) return `[${value.map(formatTerm).join(',')}]`
  if (value instanceof Tuple) return `{${value.items.map(formatTerm).join(',')}}`
  if (value instanceof Map) {
    const entries = [...(value as Map<string | Atom, unknown>)].sort(([a], [b]) => keyOrder(a, b))
    return `#{${entries.map(([k, v]) => `${formatTerm(k)} => ${formatTerm(v)}`).join(',')}}`
  }
  if (typeof value === 'object') return formatTerm(new Map(Object.entries(value)))
  return String(value)
}

/** Erlang prints floats with at least one decimal (`1.0`, `0.5`). */
function formatFloat(value: number): string {
  const text = String(value)
  return /[.e]/.test(text) ? text : `${text}.0`
}
