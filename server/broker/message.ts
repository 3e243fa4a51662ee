// An application message as it travels through the broker: from a publisher to each subscriber.
import { randomBytes } from 'node:crypto'
import type { IPublishPacket, QoS } from 'mqtt-packet'

export type PublishProperties = NonNullable<IPublishPacket['properties']>

export interface Message {
  /** 32 hex digits, unique per message, like EMQX's GUIDs. */
  id: string
  topic: string
  payload: Buffer
  qos: QoS
  retain: boolean
  /** Client id of the publisher ('' for messages the broker itself publishes). */
  from: string
  fromUsername: string | undefined
  /** The publisher's address (EMQX's `peerhost` header), for the events of the rule engine. */
  peerhost?: string
  /** The publisher's client attributes (EMQX's `client_attrs` header): its ClientInfo's own object, not a copy. */
  clientAttrs?: Readonly<Record<string, string>>
  /** When the broker accepted the message, epoch ms. */
  timestamp: number
  /** MQTT 5 properties forwarded to subscribers (never topic alias or subscription identifiers). */
  properties: PublishProperties | undefined
  /** Epoch ms after which the message must not be delivered (from Message Expiry Interval). */
  expiresAt: number | undefined
}

const nodePart = randomBytes(6).toString('hex')
let sequence = 0
// The time part changes once a millisecond, not once a message: formatted once per millisecond.
let lastNow = -1
let nowPart = ''

function nextId(now: number): string {
  sequence = (sequence + 1) % 0x1_0000_0000
  if (now !== lastNow) {
    lastNow = now
    nowPart = now.toString(16).padStart(12, '0')
  }
  return nowPart + sequence.toString(16).padStart(8, '0') + nodePart
}

export function createMessage(fields: {
  topic: string
  payload: Buffer
  qos: QoS
  retain: boolean
  from: string
  fromUsername?: string
  peerhost?: string
  clientAttrs?: Readonly<Record<string, string>>
  properties?: PublishProperties
}): Message {
  const now = Date.now()
  // Most messages carry no properties (all MQTT 3 ones): nothing to copy then.
  let properties: PublishProperties | undefined
  if (fields.properties) {
    const { topicAlias: _alias, subscriptionIdentifier: _subid, ...forwarded } = fields.properties
    if (Object.keys(forwarded).length > 0) properties = forwarded
  }
  const expiry = properties?.messageExpiryInterval
  return {
    id: nextId(now),
    topic: fields.topic,
    payload: fields.payload,
    qos: fields.qos,
    retain: fields.retain,
    from: fields.from,
    fromUsername: fields.fromUsername,
    peerhost: fields.peerhost,
    clientAttrs: fields.clientAttrs,
    timestamp: now,
    properties,
    expiresAt: expiry !== undefined ? now + expiry * 1000 : undefined,
  }
}

/** One message on its way to one subscription, with the QoS and flags it gets there. */
export interface Delivery {
  message: Message
  qos: QoS
  retain: boolean
  subids: number[]
  /** Queue priority, set when it is queued with priorities enabled. */
  priority?: number
}
