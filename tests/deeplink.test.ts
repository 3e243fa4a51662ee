import { describe, expect, it } from 'vitest'
import { parseDeepLink } from '../src/app/deeplink.ts'

describe('deep links', () => {
  it('reads ?cmd= with every other parameter as an argument, and takes them all from the address', () => {
    expect(parseDeepLink('?cmd=client.kick&clientid=sensor%201')).toEqual({
      link: { kind: 'command', id: 'client.kick', values: { clientid: 'sensor 1' } },
      rest: '',
    })
    expect(parseDeepLink('?as=username&cmd=banned.create&who=ops&reason=a%26b').link).toEqual({
      kind: 'command',
      id: 'banned.create',
      values: { as: 'username', who: 'ops', reason: 'a&b' },
    })
  })

  it('decodes as query strings are encoded: a plus is a space, %2B a plus', () => {
    expect(parseDeepLink('?cmd=banned.create&who=ops&reason=incident+42&until=%2B1h').link).toEqual({
      kind: 'command',
      id: 'banned.create',
      values: { who: 'ops', reason: 'incident 42', until: '+1h' },
    })
  })

  it('does not take names of Object.prototype as given arguments', () => {
    expect(parseDeepLink('?cmd=client.kick&toString=x&__proto__=y&clientid=a').link).toEqual({
      kind: 'command',
      id: 'client.kick',
      values: { toString: 'x', clientid: 'a' },
    })
  })

  it('keeps the first value of an argument given twice', () => {
    expect(parseDeepLink('?cmd=client.kick&clientid=a&clientid=b').link).toEqual({ kind: 'command', id: 'client.kick', values: { clientid: 'a' } })
  })

  it('reads ?script= as URL-encoded lines and leaves the other parameters in place', () => {
    const text = 'banned.create who=a\n# then\r\nclient.kick a'
    expect(parseDeepLink(`?page=2&script=${encodeURIComponent(text)}`)).toEqual({
      link: { kind: 'script', text: 'banned.create who=a\n# then\nclient.kick a' },
      rest: '?page=2',
    })
  })

  it('finds nothing in an address without a link', () => {
    expect(parseDeepLink('?page=2')).toEqual({ link: null, rest: '?page=2' })
    expect(parseDeepLink('')).toEqual({ link: null, rest: '' })
  })
})
