import { describe, expect, it } from 'vitest'
import { searchInt, searchPaging, searchText, topicListSearch } from '../src/routes/searchValues.ts'
import { errorText } from '../src/ui/errorText.ts'

describe('list URL values', () => {
  it('read text trimmed, numbers as text, and blank as absent', () => {
    expect([searchText(' a/b '), searchText(42), searchText('  '), searchText(undefined)]).toEqual(['a/b', '42', undefined, undefined])
  })

  it('read whole numbers from a minimum, so QoS 0 can be asked for while a blank is not 0', () => {
    expect([searchInt('3'), searchInt(0), searchInt(0, 0), searchInt('', 0), searchInt('1.5'), searchInt('x')]).toEqual([3, undefined, 0, undefined, undefined, undefined])
  })

  it('keep the page only past the first and the size only when not the default', () => {
    expect(searchPaging({ page: '1', limit: '20' }, 20)).toEqual({})
    expect(searchPaging({ page: '3', limit: '50' }, 20)).toEqual({ page: 3, limit: 50 })
  })

  it('show an error by its message, anything else as text', () => {
    expect([errorText(new Error('boom')), errorText('plain')]).toEqual(['boom', 'plain'])
  })
})

describe('topicListSearch', () => {
  const parse = topicListSearch(20)
  it('keeps a trimmed topic and paging past the defaults, and drops the rest', () => {
    expect(parse({ topic: '  a/+/b ', page: '3', limit: '50', other: 'x' })).toEqual({ topic: 'a/+/b', page: 3, limit: 50 })
    expect(parse({ topic: '   ', page: '1', limit: '20' })).toEqual({})
  })
})
