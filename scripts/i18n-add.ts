// Deep-merges new keys into locales/en.json and locales/zh.json: node scripts/i18n-add.ts keys.json
// where keys.json is {"en": {...}, "zh": {...}}. Existing keys are overwritten by the new values.
import { readFileSync, writeFileSync, renameSync } from 'node:fs'

type Tree = { [key: string]: string | Tree }

function merge(target: Tree, source: Tree): Tree {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key]
    if (typeof value === 'object' && typeof current === 'object') merge(current, value)
    else target[key] = value
  }
  return target
}

const input = JSON.parse(readFileSync(process.argv[2] ?? '/dev/stdin', 'utf8')) as Record<'en' | 'zh', Tree>
for (const lang of ['en', 'zh'] as const) {
  if (!input[lang]) continue
  const file = new URL(`../locales/${lang}.json`, import.meta.url)
  const tree = JSON.parse(readFileSync(file, 'utf8')) as Tree
  writeFileSync(`${file.pathname}.tmp`, `${JSON.stringify(merge(tree, input[lang]), null, 2)}\n`)
  renameSync(`${file.pathname}.tmp`, file)
}
