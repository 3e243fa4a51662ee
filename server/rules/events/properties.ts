// MQTT 5 properties as the rule engine shows them (emqx_rule_events:printable_maps): EMQX's property
// names ('Message-Expiry-Interval'), one-byte flags as 0 or 1, binary data as text, and the user
// properties twice: 'User-Property' as a map (the last value of a repeated key wins) and
// 'User-Property-Pairs' as the list of {key, value} in order. 'User-Property' is always there.

/** mqtt-packet's property names to EMQX's (emqx_mqtt_props). */
const NAMES: Readonly<Record<string, string>> = {
  payloadFormatIndicator: 'Payload-Format-Indicator',
  messageExpiryInterval: 'Message-Expiry-Interval',
  contentType: 'Content-Type',
  responseTopic: 'Response-Topic',
  correlationData: 'Correlation-Data',
  subscriptionIdentifier: 'Subscription-Identifier',
  sessionExpiryInterval: 'Session-Expiry-Interval',
  assignedClientIdentifier: 'Assigned-Client-Identifier',
  serverKeepAlive: 'Server-Keep-Alive',
  authenticationMethod: 'Authentication-Method',
  authenticationData: 'Authentication-Data',
  requestProblemInformation: 'Request-Problem-Information',
  willDelayInterval: 'Will-Delay-Interval',
  requestResponseInformation: 'Request-Response-Information',
  responseInformation: 'Response-Information',
  serverReference: 'Server-Reference',
  reasonString: 'Reason-String',
  receiveMaximum: 'Receive-Maximum',
  topicAliasMaximum: 'Topic-Alias-Maximum',
  topicAlias: 'Topic-Alias',
  maximumQoS: 'Maximum-QoS',
  retainAvailable: 'Retain-Available',
  maximumPacketSize: 'Maximum-Packet-Size',
  wildcardSubscriptionAvailable: 'Wildcard-Subscription-Available',
  subscriptionIdentifiersAvailable: 'Subscription-Identifier-Available',
  sharedSubscriptionAvailable: 'Shared-Subscription-Available',
}

function printableValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  return value
}

/** printable_maps of a property map in mqtt-packet's shape (undefined: none given). */
export function printableProps(properties: object | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { 'User-Property': {} }
  if (!properties) return out
  for (const [key, value] of Object.entries(properties)) {
    if (value === undefined) continue
    if (key === 'userProperties') {
      const map: Record<string, unknown> = {}
      const pairs: Array<{ key: string; value: unknown }> = []
      for (const [name, values] of Object.entries(value as Record<string, unknown>)) {
        for (const one of Array.isArray(values) ? values : [values]) {
          map[name] = one
          pairs.push({ key: name, value: one })
        }
      }
      out['User-Property'] = map
      out['User-Property-Pairs'] = pairs
      continue
    }
    out[NAMES[key] ?? key] = printableValue(value)
  }
  return out
}
