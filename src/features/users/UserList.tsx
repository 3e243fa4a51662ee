// Dashboard users: every user (GET /users) with its note; Create runs user.create, Edit user.update,
// Change password user.changePassword (with the new password typed twice), Delete user.delete
// (confirmed). Your own user cannot be deleted: its Delete is off and says why.
import { useAtomValue } from 'jotai'
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { changeUserPassword, createUser, deleteUser, updateUser } from '../../../commands/users.ts'
import type { DashboardUser } from '../../api/login.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { sessionAtom } from '../../state/session.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { isReservedUsername } from '../login/passwordRules.ts'
import { confirmedPassword } from './passwordForm.tsx'
import './users.css'

type Dialog = { kind: 'create' } | { kind: 'edit'; user: DashboardUser } | { kind: 'password'; user: DashboardUser }

export function UserList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const me = useAtomValue(sessionAtom)?.username
  const list = useServerData(['users'], (signal) => api.users.list(signal), [api])
  const rows = list.data ?? EMPTY
  const [dialog, setDialog] = useState<Dialog | null>(null)
  const close = useCallback(() => setDialog(null), [])
  const { busy, during } = useRowBusy()

  const remove = useCallback((user: DashboardUser) => during(user.username, () => run(deleteUser, { username: user.username })), [during, run])

  const columns = useMemo(() => {
    const col = dataTableColumns<DashboardUser>()
    return col.columns([
      col.accessor('username', {
        header: t('users.col.username'),
        size: 200,
        enableHiding: false,
        meta: { mono: true },
        cell: ({ getValue }) => (
          <span className="user-name">
            {getValue()}
            {getValue() === me ? <span className="tag tag-muted">{t('users.you')}</span> : null}
          </span>
        ),
      }),
      col.accessor((user) => user.description ?? '', {
        id: 'description',
        header: t('users.col.description'),
        size: 260,
        meta: { grow: true },
        cell: ({ getValue }) => getValue() || '—',
      }),
      col.accessor((user) => user.role ?? '', { id: 'role', header: t('users.col.role'), size: 140, meta: { hidden: true } }),
      col.display({
        id: 'actions',
        header: t('users.col.actions'),
        size: 250,
        enableHiding: false,
        meta: { label: t('users.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => {
          const user = row.original
          const self = user.username === me
          return (
            <span className="row-actions">
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDialog({ kind: 'edit', user })}>
                {t('users.edit')}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDialog({ kind: 'password', user })}>
                {t('users.changePassword')}
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm row-delete"
                disabled={self || busy.has(user.username)}
                title={self ? t('users.cannotDeleteSelf') : undefined}
                aria-description={self ? t('users.cannotDeleteSelf') : undefined}
                onClick={() => void remove(user)}
              >
                {t('users.delete')}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, me, busy, remove])

  return (
    <div className="page users-page">
      <PageHeader title={t('users.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: 'create' })}>
          {t('users.create')}
        </button>
      </PageHeader>

      <DataTable
        id="users"
        label={t('users.title')}
        columns={columns}
        data={rows}
        getRowId={(user) => user.username}
        pageKeys
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('users.empty')}
        caption={<span className="muted">{t('users.total', { count: rows.length })}</span>}
      />

      {dialog?.kind === 'create' ? (
        <CommandDialog
          command={createUser}
          testId="user-create"
          {...confirmedPassword({
            field: 'password',
            note: (values) =>
              isReservedUsername(values.username ?? '') ? (
                <p className="field-hint" role="note">
                  {t('users.reserved', { name: values.username })}
                </p>
              ) : null,
          })}
          onDone={close}
          onClose={close}
        />
      ) : null}

      {dialog?.kind === 'edit' ? (
        <CommandDialog
          command={updateUser}
          title={t('users.editTitle', { username: dialog.user.username })}
          testId="user-edit"
          fixed={['username']}
          values={{ username: dialog.user.username, description: dialog.user.description ?? '' }}
          onDone={close}
          onClose={close}
        />
      ) : null}

      {dialog?.kind === 'password' ? (
        <CommandDialog
          command={changeUserPassword}
          title={t('users.passwordTitle', { username: dialog.user.username })}
          testId="user-password"
          fixed={['username']}
          values={{ username: dialog.user.username }}
          {...confirmedPassword({
            field: 'new_pwd',
            oldField: 'old_pwd',
            note: () =>
              dialog.user.username === me ? (
                <p className="field-hint" role="note">
                  {t('users.ownPasswordNote')}
                </p>
              ) : null,
          })}
          onDone={close}
          onClose={close}
        />
      ) : null}
    </div>
  )
}

const EMPTY: readonly DashboardUser[] = []
