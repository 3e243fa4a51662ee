import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { defineCommand, type AnyCommand } from '../commands/define.ts'
import { createRegistry } from '../commands/registry.ts'
import { nearestCommandId, parseScript, rawArgs } from '../commands/script/parse.ts'

const noop = async () => undefined
const commands = [
  defineCommand({
    id: 'msg.send',
    title: 'cmd.msg.send',
    group: 'cmdGroup.test',
    args: v.object({ topic: v.string(), payload: v.optional(v.string()), qos: v.optional(v.string()), re: v.optional(v.string()) }),
    positional: ['topic', 'payload'],
    run: noop,
  }),
  defineCommand({ id: 'client.kick', title: 't', group: 'g', args: v.object({ clientid: v.string() }), positional: ['clientid'], run: noop }),
  defineCommand({ id: 'banned.clear', title: 't', group: 'g', args: v.object({}), run: noop }),
] as unknown as AnyCommand[]
const registry = createRegistry(commands)
const parse = (text: string) => parseScript(text, registry)

/** The single line of a script that must parse cleanly, as raw name -> value. */
function argsOf(line: string): Record<string, string> {
  const result = parse(line)
  expect(result.errors).toEqual([])
  expect(result.lines).toHaveLength(1)
  return rawArgs(result.lines[0])
}

describe('parsing script lines', () => {
  it('reads key=value arguments and positional ones in the declared order', () => {
    expect(argsOf('msg.send t/1 hello qos=1')).toEqual({ topic: 't/1', payload: 'hello', qos: '1' })
    expect(argsOf('msg.send qos=2 topic=a/b')).toEqual({ qos: '2', topic: 'a/b' })
    expect(argsOf('client.kick sensor-7')).toEqual({ clientid: 'sensor-7' })
  })

  it('keeps spaces inside double and single quotes, also in the middle of a word', () => {
    expect(argsOf('msg.send "a b" \'c  d\'')).toEqual({ topic: 'a b', payload: 'c  d' })
    expect(argsOf('msg.send t payload="x y"z')).toEqual({ topic: 't', payload: 'x yz' })
    expect(argsOf('msg.send t ""')).toEqual({ topic: 't', payload: '' })
    expect(argsOf('msg.send t payload=')).toEqual({ topic: 't', payload: '' })
  })

  it('applies backslash escapes inside quotes and leaves other backslashes as written', () => {
    expect(argsOf(String.raw`msg.send t "say \"hi\"\n\ttab \\ \u00e9"`).payload).toBe('say "hi"\n\ttab \\ é')
    expect(argsOf(String.raw`msg.send t 'it\'s'`).payload).toBe("it's")
    expect(argsOf(String.raw`msg.send t re="^a/(\d+)$"`).re).toBe(String.raw`^a/(\d+)$`)
    // Outside quotes nothing is an escape.
    expect(argsOf(String.raw`msg.send a\nb`).topic).toBe(String.raw`a\nb`)
  })

  it('treats # as a comment only at the start of a word and never inside quotes', () => {
    const result = parse('# whole line\n\n   \nmsg.send t/# "x # y" # trailing comment\nclient.kick c1#2')
    expect(result.errors).toEqual([])
    expect(result.lines.map((l) => [l.line, rawArgs(l)])).toEqual([
      [4, { topic: 't/#', payload: 'x # y' }],
      [5, { clientid: 'c1#2' }],
    ])
    expect(result.lines[0].text).toBe('msg.send t/# "x # y"')
    expect(argsOf('msg.send "#"').topic).toBe('#')
  })

  it('reads = after the key as part of the value, and a quoted word with = as positional', () => {
    expect(argsOf('msg.send t payload=a=b')).toEqual({ topic: 't', payload: 'a=b' })
    expect(argsOf('msg.send "qos=1"')).toEqual({ topic: 'qos=1' })
  })

  it('accepts Windows line ends, a byte order mark and tabs between words', () => {
    expect(parse('\uFEFFclient.kick\ta\r\nclient.kick b\r\n').lines.map(rawArgs)).toEqual([{ clientid: 'a' }, { clientid: 'b' }])
  })

  it('records the column where each argument value starts', () => {
    const [line] = parse('  msg.send  t/1 qos="2"').lines
    expect(line.column).toBe(3)
    expect(line.args.topic.column).toBe(13)
    expect(line.args.qos.column).toBe(21)
  })
})

describe('script errors', () => {
  it('points at the opening quote of an unterminated string', () => {
    expect(parse('client.kick c1\nmsg.send t payload="abc').errors).toEqual([
      { line: 2, column: 20, arg: 'payload', key: 'script.err.unterminatedQuote', values: { quote: '"' } },
    ])
    expect(parse("msg.send 'abc").errors[0]).toMatchObject({ line: 1, column: 10, key: 'script.err.unterminatedQuote' })
  })

  it('suggests the nearest id for an unknown command', () => {
    expect(parse('\nclient.kik c1').errors).toEqual([
      { line: 2, column: 1, key: 'script.err.unknownCommandSuggest', values: { id: 'client.kik', suggestion: 'client.kick' } },
    ])
    expect(parse('kick c1').errors[0]).toMatchObject({ values: { suggestion: 'client.kick' } })
    expect(parse('reboot.everything').errors).toEqual([
      { line: 1, column: 1, key: 'script.err.unknownCommand', values: { id: 'reboot.everything' } },
    ])
    expect(nearestCommandId('banned.clr', registry)).toBe('banned.clear')
  })

  it('names the argument for unknown and duplicate arguments', () => {
    expect(parse('msg.send t colour=red').errors).toEqual([
      { line: 1, column: 12, arg: 'colour', key: 'script.err.unknownArg', values: { name: 'colour', id: 'msg.send' } },
    ])
    expect(parse('msg.send t qos=1 qos=2').errors).toEqual([
      { line: 1, column: 18, arg: 'qos', key: 'script.err.duplicateArg', values: { name: 'qos' } },
    ])
    // A positional value for an argument also given by name.
    expect(parse('msg.send topic=a b').errors[0]).toMatchObject({ column: 18, arg: 'topic', key: 'script.err.duplicateArg' })
  })

  it('refuses more positional values than the command declares', () => {
    expect(parse('client.kick a b').errors).toEqual([
      { line: 1, column: 15, key: 'script.err.tooManyPositionals', values: { id: 'client.kick', max: 1, names: 'clientid' } },
    ])
    expect(parse('banned.clear now').errors[0]).toMatchObject({ column: 14, key: 'script.err.noPositional' })
  })

  it('reports every bad line at once and still reads the good ones', () => {
    const result = parse('client.kick a\nnope.nope\nclient.kick b c\nmsg.send "x')
    expect(result.errors.map((e) => e.line)).toEqual([2, 3, 4])
    expect(result.lines.map((l) => l.line)).toEqual([1, 3])
  })
})
