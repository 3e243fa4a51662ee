import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import en from '../locales/en.json'
import { loginSections } from '../src/app/loginStrings.ts'

// What /login renders before the shell has loaded the whole language: the page and its password
// prompt, the notifications and the not-found page at the root, and the start-up's own messages.
const loginFiles = [
  'src/features/login/LoginPage.tsx',
  'src/features/login/ChangeDefaultPassword.tsx',
  'src/features/login/passwordRules.ts',
  'src/ui/Notifications.tsx',
  'src/ui/NotFound.tsx',
  'src/main.tsx',
]

const sections = new Set(Object.keys(en))

/** The locale keys a source file names, as `'section.key'` literals of a section en.json has. */
function keysIn(file: string): string[] {
  const source = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
  return [...source.matchAll(/['"`]([a-zA-Z]+)\.[a-zA-Z][\w.]*['"`]/g)]
    .filter((match) => sections.has(match[1]))
    .map((match) => match[0].slice(1, -1))
}

describe('the strings /login loads first', () => {
  it('hold every key the login page, its prompt and the root show', () => {
    const wanted = loginFiles.flatMap(keysIn)
    expect(wanted.length).toBeGreaterThan(10)
    const missing = wanted.filter((key) => !(loginSections as readonly string[]).includes(key.split('.')[0]))
    expect(missing).toEqual([])
  })

  it('are sections of the locale files', () => {
    expect(loginSections.filter((section) => !sections.has(section))).toEqual([])
  })
})
