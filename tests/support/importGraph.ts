// The static import graph of the project's TypeScript: every module a file reaches through its
// import and export-from statements (dynamic imports included), read from the source text.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..')

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm

/** The specifiers a source imports, in order. */
export function importsOf(source: string): string[] {
  const out: string[] = []
  for (const match of source.matchAll(SPECIFIER)) out.push(match[1] ?? match[2] ?? match[3])
  return out
}

/** Every .ts/.tsx file under `dir` (relative to the project root), as root-relative paths. */
export function sourceFiles(dir: string): string[] {
  const full = join(ROOT, dir)
  if (!existsSync(full)) return []
  return readdirSync(full).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

export interface Edge {
  from: string
  /** Root-relative path for a relative import, the package name otherwise. */
  to: string
  relative: boolean
}

/** The files reachable from `roots` (root-relative) and every import edge met on the way. */
export function reachable(roots: readonly string[]): { files: string[]; edges: Edge[] } {
  const seen = new Set<string>()
  const edges: Edge[] = []
  const queue = [...roots]
  while (queue.length) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    if (!/\.tsx?$/.test(file)) continue
    for (const specifier of importsOf(readFileSync(join(ROOT, file), 'utf8'))) {
      if (!specifier.startsWith('.')) {
        edges.push({ from: file, to: specifier, relative: false })
        continue
      }
      const to = relative(ROOT, resolve(ROOT, dirname(file), specifier))
      edges.push({ from: file, to, relative: true })
      queue.push(to)
    }
  }
  return { files: [...seen], edges }
}
