// The ban patterns' linear-time engine: what it accepts, what it refuses, and that it answers.
import { describe, expect, it } from 'vitest'
import { banPatternProblem, compileBanPattern } from '../server/areas/banned/ban-pattern.ts'

describe('ban patterns', () => {
  it('matches anywhere in the text, as EMQX runs re:run without anchors', () => {
    expect(compileBanPattern('^robot-\\d+$').test('robot-42')).toBe(true)
    expect(compileBanPattern('^robot-\\d+$').test('robot-x')).toBe(false)
    expect(compileBanPattern('bot').test('my-bot-1')).toBe(true)
    expect(compileBanPattern('(?i)^guest').test('GUEST-7')).toBe(true)
  })

  it('answers patterns that make a backtracking engine take hours', () => {
    expect(compileBanPattern('(a+)+$').test(`${'a'.repeat(5000)}!`)).toBe(false)
    expect(compileBanPattern('(a+)+$').test(`!${'a'.repeat(5000)}`)).toBe(true)
    expect(compileBanPattern('^(a+)+$').test(`${'a'.repeat(5000)}!`)).toBe(false)
    expect(compileBanPattern('(x+x+)+y').test('x'.repeat(5000))).toBe(false)
    expect(compileBanPattern('^(a|a?)+$').test(`${'a'.repeat(5000)}b`)).toBe(false)
  })

  it('refuses what only a backtracking engine can run, saying why', () => {
    expect(banPatternProblem('(?=a)')).toMatch(/unsupported Perl syntax/)
    expect(banPatternProblem('(a)\\1')).toMatch(/invalid escape sequence/)
    expect(banPatternProblem('a++')).toMatch(/invalid nested repetition/)
    expect(banPatternProblem('(')).toMatch(/missing closing \)/)
    expect(banPatternProblem('^robot-\\d+$')).toBeUndefined()
  })
})
