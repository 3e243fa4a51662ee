// EMQX's counters grouped by their first name segment (client.*, session.*, packets.* ...), each
// group a card with one row per counter; the rows a search text leaves out are not shown.
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Counters } from '../../api/metrics.ts'

/** The groups in EMQX's dashboard order; names outside them land in 'other'. */
export const COUNTER_GROUPS = ['client', 'session', 'authentication', 'authorization', 'bytes', 'messages', 'delivery', 'packets'] as const

export function groupCounters(values: Counters, query: string): { group: string; rows: [string, number][] }[] {
  const needle = query.trim().toLowerCase()
  const groups = new Map<string, [string, number][]>()
  for (const [name, value] of Object.entries(values)) {
    if (needle && !name.toLowerCase().includes(needle)) continue
    const head = name.split('.')[0] ?? ''
    const group = (COUNTER_GROUPS as readonly string[]).includes(head) ? head : 'other'
    const rows = groups.get(group) ?? []
    rows.push([name, value])
    groups.set(group, rows)
  }
  return [...COUNTER_GROUPS, 'other'].flatMap((group) => {
    const rows = groups.get(group)
    return rows ? [{ group, rows }] : []
  })
}

/** A long name wraps after its dots, never inside a word. */
function breakable(name: string) {
  const parts = name.split('.')
  return parts.map((part, index) => (
    <span key={index}>
      {part}
      {index < parts.length - 1 ? (
        <>
          .<wbr />
        </>
      ) : null}
    </span>
  ))
}

export function CounterGroups({ values, query, idPrefix }: { values: Counters; query: string; idPrefix: string }) {
  const { t } = useTranslation()
  const groups = useMemo(() => groupCounters(values, query), [values, query])
  if (groups.length === 0) return <p className="muted">{t('metrics.noMatch')}</p>
  return (
    <div className="counter-groups">
      {groups.map(({ group, rows }) => (
        <section key={group} className="card counter-group" aria-labelledby={`${idPrefix}-${group}`} data-group={group}>
          <h2 className="card-title" id={`${idPrefix}-${group}`}>
            {t(`metrics.group.${group}`)}
            <span className="muted">{t('common.count', { count: rows.length })}</span>
          </h2>
          <table className="table counter-table">
            <tbody>
              {rows.map(([name, value]) => (
                <tr key={name} data-metric={name}>
                  <th scope="row" className="mono">
                    {breakable(name)}
                  </th>
                  <td className="num">{value.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  )
}
