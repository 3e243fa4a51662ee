import { describe, expect, it } from 'vitest'
import { HOME, safeRedirectTarget } from '../src/routes/redirectTarget.ts'
import { detectLang } from '../src/state/settings.ts'
import { editionCode, rememberEdition } from '../src/state/session.ts'

describe('going back after login', () => {
  it('returns to the wanted path with its search', () => {
    expect(safeRedirectTarget('/clients/list?node=emqx%40127.0.0.1')).toBe('/clients/list?node=emqx%40127.0.0.1')
    expect(safeRedirectTarget('/clients/detail/abc#subs')).toBe('/clients/detail/abc#subs')
  })

  it('defaults to the overview', () => {
    expect(safeRedirectTarget(undefined)).toBe(HOME)
    expect(safeRedirectTarget('')).toBe(HOME)
    expect(HOME).toBe('/dashboard/overview')
  })

  it('refuses other origins and odd schemes', () => {
    for (const to of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/\t/evil.example', 'dashboard'])
      expect(safeRedirectTarget(to)).toBe(HOME)
  })

  it('never goes back to the login page itself', () => {
    expect(safeRedirectTarget('/login?to=/x')).toBe(HOME)
  })
})

describe('language and edition detection', () => {
  it('uses the stored language, else Chinese for zh browsers, else English', () => {
    expect(detectLang('en', 'zh-CN')).toBe('en')
    expect(detectLang(null, 'zh-TW')).toBe('zh')
    expect(detectLang(null, 'en-US')).toBe('en')
    expect(detectLang('fr', undefined)).toBe('en')
  })

  it('is enterprise (1) only when the stored edition says so, community (2) otherwise', () => {
    expect(editionCode('enterprise')).toBe(1)
    expect(editionCode('community')).toBe(2)
    expect(editionCode(null)).toBe(2)
  })

  it("reads login's license.edition from EMQX 5.8 (ce / ee) and from older answers (opensource) the same way", () => {
    expect(rememberEdition('ce')).toBe('community')
    expect(rememberEdition('opensource')).toBe('community')
    expect(rememberEdition('ee')).toBe('enterprise')
  })
})
