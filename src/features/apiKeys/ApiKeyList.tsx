// API keys: every key (GET /api_key) with its note, expiry, state and a switch to turn it on or off;
// Create runs apiKey.create from its form and shows the secret once, in a dialog (not in a
// notification, not in the history); Edit runs apiKey.update, Delete apiKey.delete (confirmed).
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { createApiKey, deleteApiKey, disableApiKey, enableApiKey, updateApiKey } from '../../../commands/apiKeys.ts'
import { neverExpires, type ApiKey, type CreatedApiKey } from '../../api/apiKeys.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { formatTime } from '../clients/clientFields.ts'
import { SecretDialog } from './SecretDialog.tsx'
import { editableExpiry } from './editableExpiry.ts'
import './apiKeys.css'

export function ApiKeyList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const list = useServerData(['apiKeys'], (signal) => api.apiKeys.list(signal), [api])
  const rows = list.data ?? EMPTY
  const [creating, setCreating] = useState(false)
  const [editing, setEditing] = useState<ApiKey | null>(null)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const { busy, during } = useRowBusy()

  const toggle = useCallback(
    (key: ApiKey) => during(key.name, () => run(key.enable ? disableApiKey : enableApiKey, { name: key.name })),
    [during, run],
  )
  const remove = useCallback((key: ApiKey) => during(key.name, () => run(deleteApiKey, { name: key.name })), [during, run])

  const columns = useMemo(() => {
    const col = dataTableColumns<ApiKey>()
    return col.columns([
      col.accessor('name', { header: t('apiKeys.col.name'), size: 180, enableHiding: false, meta: { mono: true } }),
      col.accessor('api_key', { header: t('apiKeys.col.key'), size: 170, meta: { mono: true } }),
      col.accessor((key) => key.desc ?? '', { id: 'desc', header: t('apiKeys.col.desc'), size: 200, meta: { grow: true }, cell: ({ getValue }) => getValue() || '—' }),
      col.accessor((key) => (neverExpires(key.expired_at) ? t('apiKeys.never') : formatTime(key.expired_at).text), {
        id: 'expired_at',
        header: t('apiKeys.col.expiredAt'),
        size: 165,
        meta: { numeric: true },
      }),
      col.accessor((key) => (key.expired ? 'expired' : key.enable ? 'enabled' : 'disabled'), {
        id: 'status',
        header: t('apiKeys.col.status'),
        size: 110,
        cell: ({ getValue }) => {
          const status = getValue()
          const tag = status === 'enabled' ? 'tag-success' : status === 'expired' ? 'tag-danger' : 'tag-muted'
          return <span className={`tag ${tag}`}>{t(`apiKeys.status.${status}`)}</span>
        },
      }),
      col.accessor((key) => formatTime(key.created_at).text, { id: 'created_at', header: t('apiKeys.col.createdAt'), size: 165, meta: { numeric: true, hidden: true } }),
      col.display({
        id: 'enable',
        header: t('apiKeys.col.enable'),
        size: 90,
        meta: { label: t('apiKeys.col.enable'), align: 'center' },
        cell: ({ row }) => (
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={row.original.enable}
            aria-label={t('apiKeys.enableLabel', { name: row.original.name })}
            disabled={busy.has(row.original.name)}
            onClick={() => void toggle(row.original)}
          />
        ),
      }),
      col.display({
        id: 'actions',
        header: t('apiKeys.col.actions'),
        size: 140,
        enableHiding: false,
        meta: { label: t('apiKeys.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <span className="row-actions">
            <button type="button" className="btn btn-ghost btn-sm" disabled={busy.has(row.original.name)} onClick={() => setEditing(row.original)}>
              {t('apiKeys.edit')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={busy.has(row.original.name)} onClick={() => void remove(row.original)}>
              {t('apiKeys.delete')}
            </button>
          </span>
        ),
      }),
    ])
  }, [t, busy, toggle, remove])

  return (
    <div className="page api-keys-page">
      <PageHeader title={t('apiKeys.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          {t('apiKeys.create')}
        </button>
      </PageHeader>

      <DataTable
        id="api-keys"
        label={t('apiKeys.title')}
        columns={columns}
        data={rows}
        getRowId={(key) => key.name}
        pageKeys
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('apiKeys.empty')}
        caption={<span className="muted">{t('apiKeys.total', { count: rows.length })}</span>}
      />

      {creating ? (
        <CommandDialog
          command={createApiKey}
          testId="api-key-create"
          // The secret is shown in its own dialog, once: not in the notification nor the terminal.
          runOptions={{ showsResult: true }}
          onDone={(result) => {
            setCreating(false)
            setCreated(result)
          }}
          onClose={() => setCreating(false)}
        />
      ) : null}

      {editing ? (
        <CommandDialog
          command={updateApiKey}
          title={t('apiKeys.editTitle', { name: editing.name })}
          testId="api-key-edit"
          fixed={['name']}
          values={{ name: editing.name, desc: editing.desc ?? '', expired_at: editableExpiry(editing), enable: String(editing.enable) }}
          onDone={() => setEditing(null)}
          onClose={() => setEditing(null)}
        />
      ) : null}

      {created ? <SecretDialog created={created} onClose={() => setCreated(null)} /> : null}
    </div>
  )
}

const EMPTY: readonly ApiKey[] = []
