// The acl.conf rule language (server/areas/authz/acl-conf.ts): valid files compile to rules that
// match as EMQX's do, and each kind of error is reported with its line.
import { describe, expect, it } from 'vitest'
import { AclError, DEFAULT_ACL_CONF, parseAclConf } from '../server/areas/authz/acl-conf.ts'
import { matchRules } from '../server/areas/authz/rules.ts'
import { authzDetail, type AuthzAction, type ClientInfo } from '../server/broker/hooks.ts'

const client = (over: Partial<ClientInfo> = {}): ClientInfo => ({
  clientid: 'c1',
  username: 'u1',
  peerhost: '10.0.0.5',
  peerport: 1,
  protoVer: 5,
  listener: 'tcp:default',
  mountpoint: undefined,
  isSuperuser: false,
  ...over,
})

const check = (text: string, info: ClientInfo, action: AuthzAction, topic: string, qos: 0 | 1 | 2 = 0, retain = false) =>
  matchRules(parseAclConf(text), info, action, topic, authzDetail(qos, retain))

describe('acl.conf client_attr', () => {
  it('matches a client attribute by value or by {re, Pattern}; a client without it is not matched', () => {
    const rules = '{allow, {client_attr, "group", "g1"}, publish, ["a"]}.\n{allow, {client_attr, "group", {re, "^g[0-9]$"}}, publish, ["b"]}.\n{deny, all}.'
    const g1 = client({ clientAttrs: { group: 'g1' } })
    const g2 = client({ clientAttrs: { group: 'g2' } })
    expect([check(rules, g1, 'publish', 'a'), check(rules, g1, 'publish', 'b')]).toEqual(['allow', 'allow'])
    expect([check(rules, g2, 'publish', 'a'), check(rules, g2, 'publish', 'b')]).toEqual(['deny', 'allow'])
    expect(check(rules, client(), 'publish', 'b')).toBe('deny')
  })
})

function lineOf(text: string): number {
  try {
    parseAclConf(text)
  } catch (error) {
    expect(error).toBeInstanceOf(AclError)
    return (error as AclError).line
  }
  throw new Error('no error')
}

describe('acl.conf', () => {
  it("reads EMQX's default file: localhost may do anything, others may not subscribe to # or $SYS, the rest is allowed", () => {
    expect(parseAclConf(DEFAULT_ACL_CONF)).toHaveLength(4)
    const local = client({ peerhost: '::ffff:127.0.0.1' })
    expect(check(DEFAULT_ACL_CONF, local, 'subscribe', '#')).toBe('allow')
    expect(check(DEFAULT_ACL_CONF, client(), 'subscribe', '#')).toBe('deny')
    expect(check(DEFAULT_ACL_CONF, client(), 'subscribe', '+/#')).toBe('deny')
    expect(check(DEFAULT_ACL_CONF, client(), 'subscribe', '$SYS/brokers')).toBe('deny')
    expect(check(DEFAULT_ACL_CONF, client({ username: 'dashboard' }), 'subscribe', '$SYS/brokers')).toBe('allow')
    expect(check(DEFAULT_ACL_CONF, client(), 'subscribe', 'a/#')).toBe('allow')
    expect(check(DEFAULT_ACL_CONF, client(), 'publish', 'a/b')).toBe('allow')
  })

  it('matches who: users, client ids, regexes, addresses, and/or; comments and quoted atoms are read', () => {
    const text = `% a comment
{allow, {user, "alice"}, publish, ["a/#"]}.
{allow, {clientid, {re, "^dev-[0-9]+$"}}, subscribe, ["dev/#"]}. % trailing comment
{allow, {ipaddrs, ["192.168.0.0/16", "10.1.2.3"]}, all, ["net/#"]}.
{allow, {'and', [{username, "bob"}, {ipaddr, "10.0.0.0/8"}]}, publish, ["both"]}.
{deny, {'or', [{client, "x"}, {username, {re, "^evil"}}]}, all, all}.
`
    expect(check(text, client({ username: 'alice' }), 'publish', 'a/b')).toBe('allow')
    expect(check(text, client({ username: 'alice' }), 'subscribe', 'a/b')).toBeUndefined()
    expect(check(text, client({ clientid: 'dev-12' }), 'subscribe', 'dev/x')).toBe('allow')
    expect(check(text, client({ clientid: 'dev-x' }), 'subscribe', 'dev/x')).toBeUndefined()
    expect(check(text, client({ peerhost: '192.168.3.4' }), 'publish', 'net/a')).toBe('allow')
    expect(check(text, client({ peerhost: '10.1.2.3' }), 'subscribe', 'net/a')).toBe('allow')
    expect(check(text, client({ peerhost: '10.1.2.4' }), 'subscribe', 'net/a')).toBeUndefined()
    expect(check(text, client({ username: 'bob' }), 'publish', 'both')).toBe('allow')
    expect(check(text, client({ username: 'bob', peerhost: '11.0.0.1' }), 'publish', 'both')).toBeUndefined()
    expect(check(text, client({ clientid: 'x' }), 'publish', '$SYS/anything')).toBe('deny')
    expect(check(text, client({ username: 'evil-eve' }), 'subscribe', 'z')).toBe('deny')
  })

  it('matches actions with QoS and retain, eq topics, placeholders and all', () => {
    const text = `{allow, all, {publish, [{qos, [0, 1]}, {retain, false}]}, ["q/#"]}.
{allow, all, {subscribe, [{qos, 2}]}, ["s/#"]}.
{allow, all, pub, [{eq, "w/#"}]}.
{allow, all, all, ["\${username}/#", "c/\${clientid}"]}.
{deny, all}.
`
    const info = client()
    expect(check(text, info, 'publish', 'q/a', 1)).toBe('allow')
    expect(check(text, info, 'publish', 'q/a', 2)).toBe('deny')
    expect(check(text, info, 'publish', 'q/a', 0, true)).toBe('deny')
    expect(check(text, info, 'subscribe', 's/a', 2)).toBe('allow')
    expect(check(text, info, 'subscribe', 's/a', 1)).toBe('deny')
    expect(check(text, info, 'publish', 'w/#')).toBe('allow')
    expect(check(text, info, 'publish', 'w/x')).toBe('deny')
    expect(check(text, info, 'subscribe', 'u1/x')).toBe('allow')
    expect(check(text, info, 'publish', 'c/c1')).toBe('allow')
    expect(check(text, info, 'publish', 'c/c2')).toBe('deny')
    // No username: the placeholder is not rendered as empty, the topic does not match.
    expect(check(text, client({ username: undefined }), 'subscribe', '/x')).toBe('deny')
    // A placeholder EMQX does not know is left as written; one without a value never matches.
    const others = '{allow, all, all, ["${nope}/x", "${cert_common_name}/y", "z/${zone}"]}.\n'
    expect(check(others, info, 'publish', '${nope}/x')).toBe('allow')
    expect(check(others, info, 'publish', '/y')).toBeUndefined()
    expect(check(others, info, 'publish', 'z/default')).toBe('allow')
  })

  it('reports each kind of error with its line', () => {
    expect(lineOf('{allow, all}.\n{allow, all}')).toBe(2) // no dot
    expect(lineOf('{allow, all}.\n\n{allow, all, publish ["t"]}.')).toBe(3) // missing comma
    expect(lineOf('{allow, all}.\n{maybe, all}.')).toBe(2) // bad permission
    expect(lineOf('\n{allow, {nobody, "x"}, publish, ["t"]}.')).toBe(2) // bad who
    expect(lineOf('{allow, all, jump, ["t"]}.')).toBe(1) // bad action
    expect(lineOf('\n\n\n{allow, all, {publish, [{qos, 3}]}, ["t"]}.')).toBe(4) // bad qos
    expect(lineOf('{allow, all, publish, [{ne, "t"}]}.')).toBe(1) // bad topic
    expect(lineOf('{allow, {ipaddr, "300.1.1.1"}, publish, ["t"]}.')).toBe(1) // bad address
    expect(lineOf('{allow, {username, {re, "(a"}}, publish, ["t"]}.')).toBe(1) // bad regex
    expect(lineOf('{allow, all}.\n{allow, {client_attr, "g", 1}, publish, ["t"]}.')).toBe(2) // client_attr value not a string
    expect(lineOf('{allow, all}.\n{allow, all, publish, ["t]}.')).toBe(2) // unterminated string
    expect(lineOf('{allow, all}.\n{allow, all, publish}.')).toBe(2) // wrong arity
    expect(lineOf('{allow, all}.\n\n# no')).toBe(3) // unexpected character
    expect(() => parseAclConf('{allow, all}.\n{deny, nobody}.')).toThrow(/^line 2: /)
  })
})
