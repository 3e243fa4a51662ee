// The MQTT connector's `retry_interval`, as emqtt keeps it: while connected, a QoS 1 or 2 PUBLISH
// (or a PUBREL) the remote broker has not acknowledged within the interval is sent again, the
// PUBLISH with DUP set and its own packet id. mqtt.js resends what is unacknowledged only when it
// reconnects, so this watches the packets it writes and reads and writes the resends itself; after
// a reconnect mqtt.js' own resend from its store takes over.
import type { MqttClient } from 'mqtt'
import { generate, type IPublishPacket, type IPubrelPacket, type Packet } from 'mqtt-packet'

interface Unacknowledged {
  packet: IPublishPacket | IPubrelPacket
  sentAt: number
}

/** Starts resending on `client`; answers how to stop. An interval of 0 resends nothing. */
export function resendUnacknowledged(client: MqttClient, intervalMs: number, protocolVersion: 3 | 4 | 5): () => void {
  if (intervalMs <= 0) return () => undefined
  const pending = new Map<number, Unacknowledged>()
  const onSend = (packet: Packet) => {
    if ((packet.cmd === 'publish' && packet.qos > 0) || packet.cmd === 'pubrel') {
      if (packet.messageId !== undefined) pending.set(packet.messageId, { packet: { ...packet }, sentAt: Date.now() })
    }
  }
  const onReceive = (packet: Packet) => {
    // PUBREC moves a QoS 2 message on to its PUBREL, which mqtt.js sends (and onSend records) next.
    if ((packet.cmd === 'puback' || packet.cmd === 'pubcomp' || packet.cmd === 'pubrec') && packet.messageId !== undefined) pending.delete(packet.messageId)
  }
  const onClose = () => pending.clear()
  const timer = setInterval(() => {
    if (!client.connected) return
    const now = Date.now()
    for (const entry of pending.values()) {
      if (now - entry.sentAt < intervalMs) continue
      const again = entry.packet.cmd === 'publish' ? { ...entry.packet, dup: true } : entry.packet
      client.stream.write(generate(again, { protocolVersion }))
      entry.sentAt = now
    }
  }, intervalMs)
  timer.unref()
  client.on('packetsend', onSend)
  client.on('packetreceive', onReceive)
  client.on('close', onClose)
  return () => {
    clearInterval(timer)
    client.off('packetsend', onSend)
    client.off('packetreceive', onReceive)
    client.off('close', onClose)
    pending.clear()
  }
}
