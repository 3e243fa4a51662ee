// How a client's fields read on screen: labels, groups of the detail page, units and formats.
// No React here, so the list's columns and the detail page format a value the same way.
import type { TFunction } from 'i18next'
import type { Client, ClientField } from '../../api/clients.ts'

export type Translate = TFunction

/** Shown text, and the raw value on hover when the text is a rounded or converted form. */
export interface Shown {
  text: string
  title?: string
}

const NONE: Shown = { text: '—' }

/** i18n key of a field's label; dotted EMQX names (`recv_msg.qos0`) become `recv_msg_qos0`. */
export function fieldLabel(field: ClientField): string {
  return `clients.field.${field.replaceAll('.', '_')}`
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const

/** Bytes in 1024 steps (SPEC 9): 512 B, 1.5 KB, 12.3 MB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes)
  let value = Math.abs(bytes)
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit += 1
  }
  const sign = bytes < 0 ? '-' : ''
  if (unit === 0) return `${sign}${value} B`
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
  return `${sign}${Number(value.toFixed(digits))} ${UNITS[unit]}`
}

const PROTOCOL_VERSIONS: Record<number, string> = { 3: 'v3.1', 4: 'v3.1.1', 5: 'v5.0' }

/** MQTT protocol levels the filter offers, with the names operators know them by. */
export const protocolVersions = [
  { value: 3, label: 'v3.1' },
  { value: 4, label: 'v3.1.1' },
  { value: 5, label: 'v5.0' },
] as const

/** `MQTT v3.1.1`; other gateways' protocols keep their own name and level. */
export function formatProtocol(name: string | null | undefined, version: number | null | undefined): string {
  const protocol = name ?? 'MQTT'
  if (version === null || version === undefined) return protocol
  if (protocol === 'MQTT') return `MQTT ${PROTOCOL_VERSIONS[version] ?? `v${version}`}`
  return `${protocol} v${version}`
}

function pad(value: number): string {
  return String(value).padStart(2, '0')
}

/** RFC 3339 string or epoch milliseconds, in the browser's local time: 2024-05-01 14:03:22. */
export function formatTime(value: string | number | null | undefined): Shown {
  if (value === null || value === undefined || value === '') return NONE
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return { text: String(value) }
  const text = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  return { text, title: String(value) }
}

/** MQTT's largest session expiry interval (uint32) means the session never expires. */
export const NEVER_EXPIRE = 4_294_967_295

export function formatSeconds(seconds: number | null | undefined, t: Translate): Shown {
  if (seconds === null || seconds === undefined) return NONE
  if (seconds >= NEVER_EXPIRE) return { text: t('clients.neverExpire'), title: String(seconds) }
  return { text: t('clients.seconds', { n: seconds }) }
}

export function formatLimit(value: number | 'infinity' | null | undefined, t: Translate): string {
  if (value === null || value === undefined) return '—'
  return value === 'infinity' ? t('clients.infinity') : value.toLocaleString()
}

function formatCount(value: number | null | undefined): Shown {
  if (value === null || value === undefined) return NONE
  return { text: value.toLocaleString(), title: String(value) }
}

function formatBool(value: boolean | null | undefined, t: Translate): Shown {
  if (value === null || value === undefined) return NONE
  return { text: t(value ? 'clients.yes' : 'clients.no') }
}

function sized(value: number | null | undefined): Shown {
  if (value === null || value === undefined) return NONE
  return { text: formatBytes(value), title: `${value.toLocaleString()} B` }
}

/** `ip:port`, with IPv6 in brackets. */
export function formatAddress(client: Pick<Client, 'ip_address' | 'port'>): string {
  const ip = client.ip_address ?? ''
  if (!ip) return '—'
  const host = ip.includes(':') ? `[${ip}]` : ip
  return client.port === null || client.port === undefined ? ip : `${host}:${client.port}`
}

function usage(count: number | undefined, max: number | 'infinity' | undefined, t: Translate): Shown {
  if (count === undefined && max === undefined) return NONE
  const text = `${count === undefined ? '—' : count.toLocaleString()} / ${formatLimit(max, t)}`
  return { text }
}

/** Client attributes as `name=value`, comma separated, in name order. */
export function formatAttrs(attrs: Readonly<Record<string, string>> | undefined): Shown {
  const entries = Object.entries(attrs ?? {}).sort(([a], [b]) => a.localeCompare(b))
  if (entries.length === 0) return NONE
  return { text: entries.map(([name, value]) => `${name}=${value}`).join(', ') }
}

/** One line of the detail page: a label and how to show it from the client record. */
export interface DetailItem {
  id: string
  /** i18n key. */
  label: string
  /** The record fields it reads, so nothing of the contract goes unshown. */
  fields: ClientField[]
  show(client: Client, t: Translate): Shown
  mono?: boolean
}

function item(field: ClientField, show: (client: Client, t: Translate) => Shown, mono = false): DetailItem {
  return { id: field, label: fieldLabel(field), fields: [field], show, mono }
}

export interface DetailGroup {
  id: 'connection' | 'session' | 'process'
  /** i18n key. */
  title: string
  items: DetailItem[]
}

export const detailGroups: DetailGroup[] = [
  {
    id: 'connection',
    title: 'clients.group.connection',
    items: [
      item('clientid', (c) => ({ text: c.clientid }), true),
      item('username', (c) => (c.username ? { text: c.username } : NONE), true),
      item('connected', (c, t) => ({ text: t(c.connected ? 'clients.connected' : 'clients.disconnected') })),
      item('ip_address', (c) => (c.ip_address ? { text: c.ip_address } : NONE), true),
      item('port', (c) => (c.port === null || c.port === undefined ? NONE : { text: String(c.port) }), true),
      item('node', (c) => ({ text: c.node }), true),
      {
        id: 'protocol',
        label: 'clients.field.protocol',
        fields: ['proto_name', 'proto_ver'],
        show: (c) => ({ text: formatProtocol(c.proto_name, c.proto_ver), title: `${c.proto_name ?? ''} ${c.proto_ver ?? ''}`.trim() }),
      },
      item('keepalive', (c, t) => formatSeconds(c.keepalive, t)),
      item('clean_start', (c, t) => formatBool(c.clean_start, t)),
      item('expiry_interval', (c, t) => formatSeconds(c.expiry_interval, t)),
      item('created_at', (c) => formatTime(c.created_at)),
      item('connected_at', (c) => formatTime(c.connected_at)),
      item('disconnected_at', (c) => formatTime(c.disconnected_at)),
      item('is_bridge', (c, t) => formatBool(c.is_bridge, t)),
      item('mountpoint', (c) => (c.mountpoint ? { text: c.mountpoint } : NONE), true),
      item('zone', (c) => (c.zone ? { text: c.zone } : NONE)),
      item('listener', (c) => (c.listener ? { text: c.listener } : NONE), true),
      item('client_attrs', (c) => formatAttrs(c.client_attrs), true),
    ],
  },
  {
    id: 'session',
    title: 'clients.group.session',
    items: [
      {
        id: 'subscriptions',
        label: 'clients.field.subscriptions',
        fields: ['subscriptions_cnt', 'subscriptions_max'],
        show: (c, t) => usage(c.subscriptions_cnt, c.subscriptions_max, t),
      },
      {
        id: 'inflight',
        label: 'clients.field.inflight',
        fields: ['inflight_cnt', 'inflight_max'],
        show: (c, t) => usage(c.inflight_cnt, c.inflight_max, t),
      },
      {
        id: 'mqueue',
        label: 'clients.field.mqueue',
        fields: ['mqueue_len', 'mqueue_max'],
        show: (c, t) => usage(c.mqueue_len, c.mqueue_max, t),
      },
      item('mqueue_dropped', (c) => formatCount(c.mqueue_dropped)),
      {
        id: 'awaiting_rel',
        label: 'clients.field.awaiting_rel',
        fields: ['awaiting_rel_cnt', 'awaiting_rel_max'],
        show: (c, t) => usage(c.awaiting_rel_cnt, c.awaiting_rel_max, t),
      },
    ],
  },
  {
    id: 'process',
    title: 'clients.group.process',
    items: [
      item('heap_size', (c) => sized(c.heap_size)),
      item('reductions', (c) => formatCount(c.reductions)),
      item('mailbox_len', (c) => formatCount(c.mailbox_len)),
    ],
  },
]

/** A traffic line: the same measure received and sent. */
export interface TrafficRow {
  id: string
  /** i18n key. */
  label: string
  received?: ClientField
  sent?: ClientField
  bytes?: boolean
  /** Indented under the line above (QoS split, drop reasons). */
  level?: 1 | 2
}

export const trafficRows: TrafficRow[] = [
  { id: 'bytes', label: 'clients.traffic.bytes', received: 'recv_oct', sent: 'send_oct', bytes: true },
  { id: 'packets', label: 'clients.traffic.packets', received: 'recv_pkt', sent: 'send_pkt' },
  { id: 'socket', label: 'clients.traffic.socket', received: 'recv_cnt', sent: 'send_cnt' },
  { id: 'messages', label: 'clients.traffic.messages', received: 'recv_msg', sent: 'send_msg' },
  { id: 'qos0', label: 'clients.traffic.qos0', received: 'recv_msg.qos0', sent: 'send_msg.qos0', level: 1 },
  { id: 'qos1', label: 'clients.traffic.qos1', received: 'recv_msg.qos1', sent: 'send_msg.qos1', level: 1 },
  { id: 'qos2', label: 'clients.traffic.qos2', received: 'recv_msg.qos2', sent: 'send_msg.qos2', level: 1 },
  { id: 'dropped', label: 'clients.traffic.dropped', received: 'recv_msg.dropped', sent: 'send_msg.dropped', level: 1 },
  {
    id: 'awaitPubrelTimeout',
    label: 'clients.traffic.awaitPubrelTimeout',
    received: 'recv_msg.dropped.await_pubrel_timeout',
    level: 2,
  },
  { id: 'expired', label: 'clients.traffic.expired', sent: 'send_msg.dropped.expired', level: 2 },
  { id: 'queueFull', label: 'clients.traffic.queueFull', sent: 'send_msg.dropped.queue_full', level: 2 },
  { id: 'tooLarge', label: 'clients.traffic.tooLarge', sent: 'send_msg.dropped.too_large', level: 2 },
]

export function showTraffic(client: Client, field: ClientField | undefined, bytes: boolean): Shown | null {
  if (!field) return null
  const value = client[field]
  if (typeof value !== 'number') return NONE
  return bytes ? sized(value) : formatCount(value)
}

/** Every record field some part of the detail page shows (the tests hold it to the contract). */
export function shownFields(): Set<ClientField> {
  const out = new Set<ClientField>()
  for (const group of detailGroups) for (const entry of group.items) for (const field of entry.fields) out.add(field)
  for (const row of trafficRows) {
    if (row.received) out.add(row.received)
    if (row.sent) out.add(row.sent)
  }
  return out
}
