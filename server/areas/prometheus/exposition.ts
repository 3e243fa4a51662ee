// Metric families and the two ways EMQX 5.8 answers them: Prometheus' text exposition format (as the
// Erlang prometheus library writes it: `# TYPE` then `# HELP` with EMQX's empty help, then one line
// per sample; a family without samples keeps its two header lines) and EMQX's JSON, where the
// samples of a group of families are zipped into one object per label set.
import type { PrometheusMode } from '../../../contract/prometheus.ts'

export interface Sample {
  labels: Readonly<Record<string, string>>
  value: number
}

export interface Family {
  name: string
  type: 'gauge' | 'counter'
  samples: readonly Sample[]
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({})

/** One family of a single value, labelled with the node where the mode asks for it (with_node_label/2). */
export function single(name: string, type: Family['type'], value: number, nodeLabel: Record<string, string> = NO_LABELS): Family {
  return { name, type, samples: [{ labels: nodeLabel, value }] }
}

/** `{node}` in `all_nodes_unaggregated`, nothing otherwise. */
export function nodeLabel(mode: PrometheusMode, node: string): Record<string, string> {
  return mode === 'all_nodes_unaggregated' ? { node } : NO_LABELS
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
}

function sampleLine(name: string, sample: Sample): string {
  const labels = Object.entries(sample.labels)
  const set = labels.length === 0 ? '' : `{${labels.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(',')}}`
  return `${name}${set} ${Number.isFinite(sample.value) ? sample.value : 'NaN'}\n`
}

/** The families in the text exposition format (Content-Type text/plain), ending with the library's blank line. */
export function toText(families: readonly Family[]): string {
  let out = ''
  for (const family of families) {
    out += `# TYPE ${family.name} ${family.type}\n# HELP ${family.name} \n`
    for (const sample of family.samples) out += sampleLine(family.name, sample)
  }
  return `${out}\n`
}

/** The samples of several families zipped by position: one object of labels and values each. */
export function zipSamples(families: readonly Family[]): Array<Record<string, string | number>> {
  const rows: Array<Record<string, string | number>> = []
  for (const family of families) {
    family.samples.forEach((sample, index) => {
      rows[index] = { ...(rows[index] ?? sample.labels), [family.name]: sample.value }
    })
  }
  return rows
}

/** EMQX's json_obj_or_array/1: one object in the node and aggregated modes, a list per node otherwise. */
export function objectOrList(mode: PrometheusMode, rows: Array<Record<string, string | number>>): Record<string, string | number> | Array<Record<string, string | number>> {
  return mode === 'all_nodes_unaggregated' ? rows : (rows[0] ?? {})
}
