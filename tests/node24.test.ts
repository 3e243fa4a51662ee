// scripts/node24.mjs, the entry of `npm start` and `npm test`: runs a TypeScript script on this Node
// when it is new enough, and under Node 24 from the npm registry on an older one (the machine's own
// Node 20, when it has one).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ENTRY = join(import.meta.dirname, '..', 'scripts', 'node24.mjs')
const dir = mkdtempSync(join(tmpdir(), 'emqx-console-node24-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Type annotations (type stripping), node:sqlite, argv, the exit code and which `node` a child finds on the PATH.
const fixture = join(dir, 'probe.ts')
writeFileSync(
  fixture,
  `import { spawnSync } from 'node:child_process'
import { DatabaseSync } from 'node:sqlite'
const rows: number = new DatabaseSync(':memory:').prepare('SELECT 1 AS one').all().length
const childNode: string = spawnSync('node', ['-v'], { encoding: 'utf8' }).stdout.trim()
console.log(JSON.stringify({ node: process.version, argv: process.argv.slice(2), rows, childNode }))
process.exit(3)
`,
)

function run(node: string) {
  const result = spawnSync(node, [ENTRY, fixture, 'a b', '--c'], { encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1' } })
  return { status: result.status, stderr: result.stderr, probe: JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') }
}

const OLD_NODE = '/usr/bin/node'
const oldVersion = existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim() : ''
const [major = 99, minor = 0] = oldVersion.split('.').map(Number)
const hasOldNode = oldVersion !== '' && (major < 22 || (major === 22 && minor < 12))

describe('scripts/node24.mjs', () => {
  it('runs a TypeScript script on this Node, saying nothing, with its arguments and exit code', () => {
    const { status, stderr, probe } = run(process.execPath)
    expect(probe).toEqual({ node: process.version, argv: ['a b', '--c'], rows: 1, childNode: expect.any(String) })
    expect(status).toBe(3)
    expect(stderr).not.toContain('older than')
  })

  it.skipIf(!hasOldNode)(`on an older Node (${OLD_NODE} ${oldVersion}) says so in one line and runs the script under Node 24`, () => {
    const { status, stderr, probe } = run(OLD_NODE)
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^Node v${oldVersion.replaceAll('.', '\\.')} is older than the 22\\.12 this project needs: running under Node 24 from the npm registry \\(`)),
    ])
    expect(probe.node).toMatch(/^v24\./)
    expect(probe.childNode).toMatch(/^v24\./)
    expect(probe.argv).toEqual(['a b', '--c'])
    expect(probe.rows).toBe(1)
    expect(status).toBe(3)
  })
})
