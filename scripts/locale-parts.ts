// A Vite plugin: `locales/<lang>.json?part=login` is that locale with only the sections /login shows
// (src/app/loginStrings.ts), so the first load does not fetch the strings of every screen.
import { readFileSync } from 'node:fs'
import type { Plugin } from 'vite'
import { loginSections } from '../src/app/loginStrings.ts'

// The dev server may add its own query parameters (`&import`) beside ours.
const LOGIN_PART = /^(.*\/locales\/[\w-]+\.json)\?(?:.*&)?part=login(?:&|$)/

export function localeParts(): Plugin {
  return {
    name: 'locale-parts',
    enforce: 'pre',
    load(id) {
      const file = LOGIN_PART.exec(id)?.[1]
      if (!file) return null
      this.addWatchFile(file)
      const strings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
      const part = Object.fromEntries(loginSections.map((section) => [section, strings[section]]))
      return `export default ${JSON.stringify(part)}`
    },
  }
}
