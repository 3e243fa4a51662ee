// The users of a built-in database authenticator (password-based or SCRAM): a page at a time,
// searched by user id; Add runs authn.addUser, Edit authn.updateUser (a new password, superuser),
// Delete authn.deleteUser (confirmed), Import a CSV or JSON file authn.importUsers, whose counts
// (added, overridden, skipped, failed) stay above the table until the next import.
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { addAuthnUser, deleteAuthnUser, importAuthnUsers, updateAuthnUser } from '../../../commands/authn.ts'
import type { ImportResult, User } from '../../api/authn.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { FileButton } from '../../ui/FileButton.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'

const DEFAULT_LIMIT = 20

type Dialog = { kind: 'add' } | { kind: 'edit'; user: User }

export function AuthnUsers({ id }: { id: string }) {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const [page, setPage] = useState(1)
  const [limit, setLimit] = useState(DEFAULT_LIMIT)
  const [query, setQuery] = useState('')
  const [search, setSearch] = useState('')
  const list = useServerData(['authn'], (signal) => api.authn.users(id, { page, limit, like_user_id: search || undefined }, signal), [api, id, page, limit, search])
  const rows = list.data?.data ?? EMPTY
  const [dialog, setDialog] = useState<Dialog | null>(null)
  const close = useCallback(() => setDialog(null), [])
  const [imported, setImported] = useState<ImportResult | null>(null)
  const [importType, setImportType] = useState<'plain' | 'hash'>('plain')
  const { busy, during } = useRowBusy()

  const remove = useCallback((user: User) => during(user.user_id, () => run(deleteAuthnUser, { id, user_id: user.user_id })), [during, run, id])

  const importFile = async (file: File) => {
    const outcome = await run(importAuthnUsers, { id, filename: file.name, content: await file.text(), type: importType })
    setImported(outcome.ok ? outcome.result : null)
  }

  const columns = useMemo(() => {
    const col = dataTableColumns<User>()
    return col.columns([
      col.accessor('user_id', { header: t('authn.users.col.userId'), size: 260, enableHiding: false, meta: { mono: true, grow: true } }),
      col.accessor((user) => (user.is_superuser ? t('authn.users.yes') : t('authn.users.no')), { id: 'is_superuser', header: t('authn.users.col.superuser'), size: 140 }),
      col.display({
        id: 'actions',
        header: t('authn.users.col.actions'),
        size: 170,
        enableHiding: false,
        meta: { label: t('authn.users.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <span className="row-actions">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDialog({ kind: 'edit', user: row.original })}>
              {t('authn.users.edit')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={busy.has(row.original.user_id)} onClick={() => void remove(row.original)}>
              {t('authn.users.delete')}
            </button>
          </span>
        ),
      }),
    ])
  }, [t, busy, remove])

  return (
    <section className="authn-users" aria-label={t('authn.tab.users')}>
      <form
        className="authn-users-bar"
        role="search"
        onSubmit={(event) => {
          event.preventDefault()
          setPage(1)
          setSearch(query.trim())
        }}
      >
        <input className="input" type="search" value={query} placeholder={t('authn.users.search')} aria-label={t('authn.users.search')} onChange={(e) => setQuery(e.target.value)} />
        <button type="submit" className="btn">
          {t('authn.users.searchSubmit')}
        </button>
        <select className="select" value={importType} aria-label={t('authn.users.importType')} onChange={(e) => setImportType(e.target.value as 'plain' | 'hash')}>
          <option value="plain">{t('authn.users.importPlain')}</option>
          <option value="hash">{t('authn.users.importHash')}</option>
        </select>
        <FileButton label={t('authn.users.import')} inputLabel={t('authn.users.importFile')} accept=".csv,.json" onFile={(file) => void importFile(file)} />
        <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: 'add' })}>
          {t('authn.users.add')}
        </button>
      </form>
      {imported ? (
        <p className="authn-import-result" role="status">
          {t('authn.users.importResult', imported)}
        </p>
      ) : null}
      <DataTable
        id="authn-users"
        label={t('authn.tab.users')}
        columns={columns}
        data={rows}
        getRowId={(user) => user.user_id}
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('authn.users.empty')}
        paging={{
          page,
          pageSize: limit,
          count: list.data?.meta.count,
          hasNext: list.data?.meta.hasnext ?? false,
          onPageChange: setPage,
          onPageSizeChange: (size) => {
            setLimit(size)
            setPage(1)
          },
        }}
      />
      {dialog?.kind === 'add' ? (
        <CommandDialog command={addAuthnUser} testId="authn-user-add" fixed={['id']} values={{ id }} onDone={close} onClose={close} />
      ) : null}
      {dialog?.kind === 'edit' ? (
        <CommandDialog
          command={updateAuthnUser}
          title={t('authn.users.editTitle', { user_id: dialog.user.user_id })}
          testId="authn-user-edit"
          fixed={['id', 'user_id']}
          values={{ id, user_id: dialog.user.user_id, is_superuser: String(dialog.user.is_superuser) }}
          onDone={close}
          onClose={close}
        />
      ) : null}
    </section>
  )
}

const EMPTY: readonly User[] = []
