// How a node's fields read on the nodes list and the node detail. No React here.
import { kmgBytes } from '../../../contract/nodes.ts'
import type { NodeInfo } from '../../api/nodes.ts'
import { formatBytes, type Translate as T } from '../clients/clientFields.ts'

/** Milliseconds as '3 d 4 h 5 min' (the two largest units, seconds below one minute). */
export function formatUptime(ms: number | undefined, t: T): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—'
  const seconds = Math.floor(ms / 1000)
  const days = Math.floor(seconds / 86400)
  const hours = Math.floor((seconds % 86400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  if (days > 0) return t('nodes.uptime.dh', { d: days, h: hours })
  if (hours > 0) return t('nodes.uptime.hm', { h: hours, m: minutes })
  if (minutes > 0) return t('nodes.uptime.ms', { m: minutes, s: seconds % 60 })
  return t('nodes.uptime.s', { s: seconds })
}

function bytes(value: number | string | undefined): string {
  if (value === undefined) return '—'
  return typeof value === 'number' ? formatBytes(value) : value
}

/** 'used / total (n %)' as EMQX's memory figures allow: bytes, or EMQX 5's '256.00M' texts. */
export function formatMemory(node: NodeInfo): string {
  const used = node.memory_used
  const total = node.memory_total
  if (used === undefined && total === undefined) return '—'
  const usedBytes = kmgBytes(used)
  const totalBytes = kmgBytes(total)
  const share = usedBytes !== undefined && totalBytes !== undefined && totalBytes > 0 ? ` (${Math.round((usedBytes / totalBytes) * 100)} %)` : ''
  return `${bytes(usedBytes ?? used)} / ${bytes(totalBytes ?? total)}${share}`
}

/** Open handles against their limit (EMQX: Erlang processes used / available). */
export function formatProcesses(node: NodeInfo): string {
  if (node.process_used === undefined && node.process_available === undefined) return '—'
  return `${formatCount(node.process_used)} / ${formatCount(node.process_available)}`
}

export function formatLoad(node: NodeInfo): string {
  const show = (value: number | string | undefined) => (value === undefined ? '—' : String(value))
  return `${show(node.load1)} / ${show(node.load5)} / ${show(node.load15)}`
}

export function formatCount(value: number | undefined): string {
  return value === undefined ? '—' : value.toLocaleString()
}
