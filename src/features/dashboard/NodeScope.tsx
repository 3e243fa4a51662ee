// The overview's scope: the whole cluster or one node, kept in the URL search as `node`.
import { useTranslation } from 'react-i18next'

/** The `node` search value: a node name, or undefined for the whole cluster. */
export function parseNode(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

interface NodeScopeProps {
  /** Node names from GET /nodes. */
  nodes: readonly string[]
  value: string | undefined
  onChange: (node: string | undefined) => void
}

export function NodeScope({ nodes, value, onChange }: NodeScopeProps) {
  const { t } = useTranslation()
  // A linked node that is not (or not yet) in the list stays choosable, so the select shows the URL.
  const options = value !== undefined && !nodes.includes(value) ? [...nodes, value] : nodes
  return (
    <label className="overview-scope">
      <span className="muted">{t('overview.scope.label')}</span>
      <select className="select" value={value ?? ''} onChange={(event) => onChange(parseNode(event.target.value))}>
        <option value="">{t('overview.scope.all')}</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  )
}
