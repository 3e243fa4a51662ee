// The built-in database's rules: tabs for rules by client id, by username and for all clients; each
// rule a row (who, permission, action, topic, QoS, retain), a page at a time. Add runs
// authz.addRule; Delete runs authz.deleteRules for that client id or username (or all).
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { addAuthzRule, deleteAuthzRule, updateAuthzRule } from '../../../commands/authz.ts'
import type { AuthzRule } from '../../../contract/authz.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'

type Kind = 'clientid' | 'username' | 'all'
const KINDS: readonly Kind[] = ['clientid', 'username', 'all']

interface RuleRow {
  id: string
  who: string
  /** From 1, within its client id's, username's or all's list. */
  index: number
  rule: AuthzRule
}

/** A rule as the rule commands' form values. */
const ruleValues = (rule: AuthzRule) => ({
  permission: rule.permission,
  action: rule.action,
  topic: rule.topic,
  qos: rule.qos.join(','),
  retain: String(rule.retain),
})

export function BuiltInRules() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const [kind, setKind] = useState<Kind>('clientid')
  const [page, setPage] = useState(1)
  const [limit, setLimit] = useState(20)
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<RuleRow | null>(null)

  const list = useServerData(
    ['authz'],
    async (signal) => {
      if (kind === 'all') {
        const rules = await api.authz.allRules(signal)
        return { rows: rules.map((rule, i) => ({ id: `all/${i}`, who: '', index: i + 1, rule })), hasNext: false, count: rules.length }
      }
      const { data, meta } =
        kind === 'clientid'
          ? await api.authz.clientRules({ page, limit }, signal).then((r) => ({ ...r, data: r.data.map((e) => ({ who: e.clientid, rules: e.rules })) }))
          : await api.authz.userRules({ page, limit }, signal).then((r) => ({ ...r, data: r.data.map((e) => ({ who: e.username, rules: e.rules })) }))
      const rows = data.flatMap((entry) => entry.rules.map((rule, i) => ({ id: `${entry.who}/${i}`, who: entry.who, index: i + 1, rule })))
      return { rows, hasNext: meta.hasnext ?? (meta.count ?? 0) > page * limit, count: meta.count }
    },
    [api, kind, page, limit],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<RuleRow>()
    return col.columns([
      ...(kind === 'all'
        ? []
        : [col.accessor('who', { header: t(`authz.rules.who.${kind}`), size: 180, meta: { mono: true } })]),
      col.accessor((row) => t(`authz.permission.${row.rule.permission}`), { id: 'permission', header: t('form.field.permission'), size: 100 }),
      col.accessor((row) => t(`authz.action.${row.rule.action}`), { id: 'action', header: t('form.field.authzAction'), size: 150 }),
      col.accessor((row) => row.rule.topic, { id: 'topic', header: t('form.field.topic'), size: 220, meta: { mono: true, grow: true } }),
      col.accessor((row) => row.rule.qos.join(', '), { id: 'qos', header: t('authz.rules.qos'), size: 90 }),
      col.accessor((row) => t(`authz.rules.retain.${String(row.rule.retain)}`), { id: 'retain', header: t('authz.rules.retainCol'), size: 90 }),
      col.display({
        id: 'actions',
        header: t('authz.col.actions'),
        size: 140,
        enableHiding: false,
        meta: { label: t('authz.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <span className="row-actions">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(row.original)}>
              {t('authz.rules.edit')}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm row-delete"
              onClick={() => void run(deleteAuthzRule, { kind, index: row.original.index, ...(kind === 'all' ? {} : { who: row.original.who }) })}
            >
              {t('authz.delete')}
            </button>
          </span>
        ),
      }),
    ])
  }, [t, kind, run])

  return (
    <section className="authz-rules">
      <div className="authz-rules-toolbar">
        <nav className="segmented" aria-label={t('authz.rules.tabs')} role="tablist">
          {KINDS.map((each) => (
            <button
              key={each}
              type="button"
              role="tab"
              aria-selected={kind === each}
              className={`segmented-item${kind === each ? ' is-selected' : ''}`}
              onClick={() => {
                setKind(each)
                setPage(1)
              }}
            >
              {t(`authz.rules.tab.${each}`)}
            </button>
          ))}
        </nav>
        <span className="spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          {t('authz.rules.add')}
        </button>
      </div>
      <DataTable
        id={`authz-rules-${kind}`}
        label={t(`authz.rules.tab.${kind}`)}
        columns={columns}
        data={list.data?.rows ?? EMPTY}
        getRowId={(row) => row.id}
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('authz.rules.empty')}
        paging={
          kind === 'all'
            ? undefined
            : {
                page,
                pageSize: limit,
                count: list.data?.count,
                hasNext: list.data?.hasNext ?? false,
                onPageChange: setPage,
                onPageSizeChange: (size) => {
                  setLimit(size)
                  setPage(1)
                },
              }
        }
      />
      {adding ? (
        <CommandDialog
          command={addAuthzRule}
          title={t(`authz.rules.addTitle.${kind}`)}
          testId="authz-rule-add"
          fixed={kind === 'all' ? ['kind', 'who'] : ['kind']}
          values={{ kind }}
          check={(values) => (kind !== 'all' && !values.who?.trim() ? [{ field: 'who', key: `authz.rules.whoRequired.${kind}` }] : [])}
          onDone={() => setAdding(false)}
          onClose={() => setAdding(false)}
        />
      ) : null}
      {editing ? (
        <CommandDialog
          command={updateAuthzRule}
          title={t('authz.rules.editTitle', { index: editing.index })}
          testId="authz-rule-edit"
          fixed={['kind', 'who', 'index']}
          values={{ kind, who: editing.who, index: String(editing.index), ...ruleValues(editing.rule) }}
          onDone={() => setEditing(null)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  )
}

const EMPTY: readonly RuleRow[] = []
