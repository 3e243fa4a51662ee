// `npm run bench`: runs every bench/*.bench.ts in turn; each prints its own table. Nothing is asserted.
import { readdirSync } from 'node:fs'

const dir = new URL('.', import.meta.url)
const only = process.argv[2]
for (const file of readdirSync(dir).filter((name) => name.endsWith('.bench.ts')).sort()) {
  if (only && !file.includes(only)) continue
  console.log(`\n== ${file}`)
  const bench = (await import(new URL(file, dir).href)) as { default: () => Promise<void> }
  await bench.default()
}
