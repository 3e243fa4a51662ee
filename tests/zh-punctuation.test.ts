// Chinese text uses full-width punctuation next to Chinese characters: 自动刷新（5 秒）, 连接被拒绝：未授权（5）.
// ASCII stays inside code, units and placeholders ({{count}}, $SYS, 0x8A, 100ms).
import { describe, expect, it } from 'vitest'
import zh from '../locales/zh.json'

type Tree = { [key: string]: unknown }

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key
    return value !== null && typeof value === 'object' ? leaves(value as Tree, path) : [[path, String(value)] as [string, string]]
  })
}

// Han characters and the full-width forms and CJK punctuation around them.
const CJK = '[\\u3400-\\u9fff\\uf900-\\ufaff\\u3000-\\u303f\\uff00-\\uffef]'
/**
 * A half-width parenthesis, colon, comma or semicolon touching Chinese text (a space between counts
 * too), or a question or exclamation mark right against it (`按 ? 或 Esc` names a key).
 */
const HALF_WIDTH_NEXT_TO_CJK = new RegExp(`${CJK} ?[(),:;]|[(),:;] ?${CJK}|${CJK}[?!]|[?!]${CJK}`)

describe('the Chinese locale', () => {
  it('uses full-width parentheses, colons, commas, semicolons and question marks next to Chinese characters', () => {
    const offending = leaves(zh as Tree)
      .filter(([, text]) => HALF_WIDTH_NEXT_TO_CJK.test(text))
      .map(([key, text]) => `${key}: ${text}`)
    expect(offending).toEqual([])
  })

  it('is checked by a rule that catches what it should and leaves code alone', () => {
    expect(HALF_WIDTH_NEXT_TO_CJK.test('自动刷新 (5 秒)')).toBe(true)
    expect(HALF_WIDTH_NEXT_TO_CJK.test('连接被拒绝: 未授权')).toBe(true)
    expect(HALF_WIDTH_NEXT_TO_CJK.test('主题,订阅')).toBe(true)
    expect(HALF_WIDTH_NEXT_TO_CJK.test('忘记密码?')).toBe(true)
    expect(HALF_WIDTH_NEXT_TO_CJK.test('按 ? 或 Esc 关闭')).toBe(false)
    expect(HALF_WIDTH_NEXT_TO_CJK.test('自动刷新（5 秒）')).toBe(false)
    expect(HALF_WIDTH_NEXT_TO_CJK.test('如 1m，或 disabled')).toBe(false)
    expect(HALF_WIDTH_NEXT_TO_CJK.test('按名称搜索，例如 messages.received')).toBe(false)
    expect(HALF_WIDTH_NEXT_TO_CJK.test('{{title}}：参数无效（{{message}}）')).toBe(false)
  })
})
