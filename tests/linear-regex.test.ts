// The ban patterns' linear-time engine: what it accepts, what it refuses, and that it answers.
import { describe, expect, it } from 'vitest'
import { linearRegexProblem, compileLinearRegex } from '../server/broker/linear-regex.ts'

describe('saved patterns (ban patterns, topic rewrite)', () => {
  it('matches anywhere in the text, as EMQX runs re:run without anchors', () => {
    expect(compileLinearRegex('^robot-\\d+$').test('robot-42')).toBe(true)
    expect(compileLinearRegex('^robot-\\d+$').test('robot-x')).toBe(false)
    expect(compileLinearRegex('bot').test('my-bot-1')).toBe(true)
    expect(compileLinearRegex('(?i)^guest').test('GUEST-7')).toBe(true)
  })

  it('answers patterns that make a backtracking engine take hours', () => {
    expect(compileLinearRegex('(a+)+$').test(`${'a'.repeat(5000)}!`)).toBe(false)
    expect(compileLinearRegex('(a+)+$').test(`!${'a'.repeat(5000)}`)).toBe(true)
    expect(compileLinearRegex('^(a+)+$').test(`${'a'.repeat(5000)}!`)).toBe(false)
    expect(compileLinearRegex('(x+x+)+y').test('x'.repeat(5000))).toBe(false)
    expect(compileLinearRegex('^(a|a?)+$').test(`${'a'.repeat(5000)}b`)).toBe(false)
  })

  it('refuses what only a backtracking engine can run, saying why', () => {
    expect(linearRegexProblem('(?=a)')).toMatch(/unsupported Perl syntax/)
    expect(linearRegexProblem('(a)\\1')).toMatch(/invalid escape sequence/)
    expect(linearRegexProblem('a++')).toMatch(/invalid nested repetition/)
    expect(linearRegexProblem('(')).toMatch(/missing closing \)/)
    expect(linearRegexProblem('^robot-\\d+$')).toBeUndefined()
  })
})
