// The headless core stays headless: the command registry, the CLI, the API client, the EMQX
// contract and the test client's engine reach no React, no screen or shell code, and (in what the
// browser also loads) no Node module. tsconfig.core.json type-checks the same files without the DOM.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importsOf, reachable, ROOT, sourceFiles, type Edge } from './support/importGraph.ts'

const CORE = ['commands', 'cli', 'src/api', 'contract', 'src/testclient']
/** Loaded by the browser as well as by Node. */
const SHARED = ['commands', 'src/api', 'contract', 'src/testclient']

/** Packages that render or hold UI state. */
const UI_PACKAGE = /^(react|react-dom|react-i18next|jotai|cmdk|uplot)(\/|$)|^@tanstack\/react-|^@xterm\//
/** Browser-only code: screens, the shell, widgets, routes and UI state. */
const UI_DIR = /^src\/(features|app|ui|routes|state)\//

function problems(edges: readonly Edge[], shared: ReadonlySet<string>): string[] {
  return edges.flatMap((edge) => {
    if (!edge.relative && UI_PACKAGE.test(edge.to)) return [`${edge.from} imports ${edge.to}`]
    if (!edge.relative && edge.to.startsWith('node:') && shared.has(edge.from)) return [`${edge.from} (loaded by the browser) imports ${edge.to}`]
    if (edge.relative && (UI_DIR.test(edge.to) || edge.to.endsWith('.tsx'))) return [`${edge.from} imports ${edge.to}`]
    return []
  })
}

describe('the headless core', () => {
  const roots = CORE.flatMap(sourceFiles)
  const graph = reachable(roots)
  const shared = new Set(graph.files.filter((file) => SHARED.some((dir) => file.startsWith(`${dir}/`))))

  it('reaches no React, screen, shell or UI-state module from commands/, cli/, src/api/ or contract/', () => {
    expect(roots.length).toBeGreaterThan(50)
    expect(problems(graph.edges, shared)).toEqual([])
  })

  it('type-checks without the DOM library (tsconfig.core.json)', () => {
    const config = readFileSync(join(ROOT, 'tsconfig.core.json'), 'utf8')
    expect(config).toMatch(/"lib": \["ES2023"\]/)
    for (const dir of CORE) expect(config).toContain(`"${dir}"`)
    const tsc = join(ROOT, 'node_modules/.bin/tsc')
    const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(ROOT, 'tsconfig.core.json')], { encoding: 'utf8' })
    expect(result.stdout + result.stderr).toBe('')
    expect(result.status).toBe(0)
  })

  it('would catch a command that imports a screen, React or node:fs', () => {
    const edges: Edge[] = [
      { from: 'commands/x.ts', to: 'src/features/clients/ClientList.tsx', relative: true },
      { from: 'commands/x.ts', to: 'src/app/useApi.ts', relative: true },
      { from: 'src/api/x.ts', to: 'react', relative: false },
      { from: 'commands/x.ts', to: 'node:fs', relative: false },
      { from: 'cli/x.ts', to: 'node:fs', relative: false },
    ]
    expect(problems(edges, new Set(['commands/x.ts', 'src/api/x.ts']))).toHaveLength(4)
    expect(importsOf("import { a } from './a.ts'\nexport { b } from '../b.ts'\nconst c = await import('./c.ts')\nimport type {\n  D,\n} from 'react'")).toEqual([
      './a.ts',
      '../b.ts',
      './c.ts',
      'react',
    ])
  })
})
