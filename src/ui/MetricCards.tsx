// Metric cards and a per-node metrics table for a detail screen's overview (a rule's, an action's,
// a source's): each value under its label, `data-metric` naming it for tests and probes.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import './metrics.css'

/** A card of metrics under a title, each a label and its value. */
export function MetricGroup<K extends string>({
  id,
  title,
  unit,
  keys,
  label,
  value,
  children,
}: {
  id: string
  title: string
  /** Shown after the title, muted ('messages/sec'). */
  unit?: string
  keys: readonly K[]
  /** A key's translated label. */
  label(key: K): string
  value(key: K): string
  children?: ReactNode
}) {
  return (
    <section className="card metric-group" aria-labelledby={id}>
      <h2 className="card-title" id={id}>
        {title}
        {unit ? <span className="muted"> ({unit})</span> : null}
      </h2>
      <dl className="metric-cells">
        {keys.map((key) => (
          <div key={key} data-metric={key}>
            <dt className="muted">{label(key)}</dt>
            <dd>{value(key)}</dd>
          </div>
        ))}
      </dl>
      {children}
    </section>
  )
}

/** What an overview shows until its first metrics arrive: why they could not be read, or Loading. */
export function MetricsPending({ error }: { error: string | null }) {
  const { t } = useTranslation()
  return error ? (
    <p className="field-error" role="alert">
      {error}
    </p>
  ) : (
    <p className="muted">{t('table.loading')}</p>
  )
}

/** The cards side by side, as many as fit. */
export function MetricGroups({ children }: { children: ReactNode }) {
  return <div className="metric-groups">{children}</div>
}

/** Each node's own metrics, a row a node. */
export function NodeMetricsTable<K extends string>({
  id,
  title,
  nodeHeader,
  keys,
  label,
  rows,
  value,
}: {
  id: string
  title: ReactNode
  nodeHeader: string
  keys: readonly K[]
  label(key: K): string
  rows: readonly { node: string; metrics: Record<string, number> }[]
  value(key: K, metrics: Record<string, number>): string
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 className="card-title" id={id}>
        {title}
      </h2>
      <div className="node-metrics-scroll">
        <table className="node-metrics">
          <thead>
            <tr>
              <th scope="col">{nodeHeader}</th>
              {keys.map((key) => (
                <th key={key} scope="col" className="numeric">
                  {label(key)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(({ node, metrics }) => (
              <tr key={node}>
                <td className="mono">{node}</td>
                {keys.map((key) => (
                  <td key={key} className="numeric">
                    {value(key, metrics)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
