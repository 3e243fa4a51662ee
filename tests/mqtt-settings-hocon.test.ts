// The HOCON that PUT /configs reads and GET /configs writes: what configs use, read back as written.
import { describe, expect, it } from 'vitest'
import { HoconError, parseHocon, printHocon } from '../server/areas/configs/hocon.ts'

describe('HOCON', () => {
  it('reads blocks, dotted keys, both separators, comments, lists and merges a key given twice', () => {
    const text = `
      # the broker
      mqtt {
        max_inflight = 10, retain_available: false
        mqueue_priorities { "t/1" = 10 }   // per topic
      }
      mqtt.max_topic_levels = 3
      alarm { actions = [log, "publish"] }
      sys_topics.sys_msg_interval = 2m
      rate = 1000/s
      text = """a "quoted" word"""
      nothing = null
    `
    expect(parseHocon(text)).toEqual({
      mqtt: { max_inflight: 10, retain_available: false, mqueue_priorities: { 't/1': 10 }, max_topic_levels: 3 },
      alarm: { actions: ['log', 'publish'] },
      sys_topics: { sys_msg_interval: '2m' },
      rate: '1000/s',
      text: 'a "quoted" word',
      nothing: null,
    })
    expect(parseHocon('{"a": {"b": [1, 2]}}')).toEqual({ a: { b: [1, 2] } })
  })

  it('writes what it reads back the same, quoting what would read as another type', () => {
    const roots = {
      mqtt: { max_packet_size: '1MB', response_information: '', keepalive_multiplier: 1.5, n: '10', yes: 'true', priorities: { 't/1': 10 } },
      alarm: { actions: ['log', 'publish'], list: [{ a: 1 }] },
      limiter: { max_conn_rate: 'infinity', rate: '10/100ms', percent: '80%' },
    }
    const text = printHocon(roots)
    expect(text).toContain('  max_packet_size = 1MB\n')
    expect(text).toContain('  n = "10"\n')
    expect(text).toContain('    "t/1" = 10\n')
    expect(parseHocon(text)).toEqual(roots)
  })

  it('refuses what it cannot resolve or read, with the line', () => {
    const line = (text: string) => {
      try {
        parseHocon(text)
      } catch (error) {
        return error instanceof HoconError ? [error.line, error.message] : error
      }
      return 'read'
    }
    expect(line('a {\n  b = ${HOME}\n}')).toEqual([2, 'substitutions (${…}) are not supported'])
    expect(line('include "other.conf"')).toEqual([1, 'include is not supported'])
    expect(line('a {\n b = 1')).toEqual([2, "missing '}'"])
    expect(line('a b')).toEqual([1, "expected '=', ':' or '{' after a"])
    expect(line('a += 1')).toEqual([1, "'+=' is not supported"])
  })
})
