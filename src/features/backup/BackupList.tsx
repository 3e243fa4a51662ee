// Data backups (GET /data/files): the archives the cluster's nodes hold, newest first, with their
// node, size and creation time. Export opens backup.export's form; Upload picks an archive and runs
// backup.upload; a row's Import, Download and Delete run backup.import (confirmed by the command:
// it writes over the server's data), backup.download (the browser saves it) and backup.delete.
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteBackup, downloadBackup, exportBackup, importBackup, uploadBackup } from '../../../commands/dataBackup.ts'
import { backupSearch, type BackupFile } from '../../api/dataBackup.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { useListSearch } from '../../routes/searchValues.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { FileButton } from '../../ui/FileButton.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { formatBytes, formatTime } from '../clients/clientFields.ts'
import { base64OfFile } from './base64.ts'

const DEFAULT_LIMIT = 20

const key = (file: BackupFile) => `${file.node}/${file.filename}`

type Action = 'import' | 'download' | 'delete'

export function BackupList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const { search, go } = useListSearch(backupSearch, '/backup', { defaultLimit: DEFAULT_LIMIT })
  const list = useServerList(
    ['dataBackup'],
    async (page, limit, signal) => {
      const { data, meta } = await api.dataBackup.list({ page, limit }, signal)
      return { data, meta: { count: meta.count, hasnext: meta.hasnext } }
    },
    search,
    DEFAULT_LIMIT,
    [api],
  )
  const data = list.data?.data ?? EMPTY
  const [exporting, setExporting] = useState(false)
  const [uploading, setUploading] = useState(false)
  const { busy, during } = useRowBusy()

  const upload = async (file: File) => {
    setUploading(true)
    try {
      await run(uploadBackup, { filename: file.name, content: await base64OfFile(file) })
    } finally {
      setUploading(false)
    }
  }

  const act = useCallback(
    (file: BackupFile, action: Action) =>
      during(key(file), async () => {
        const args = { filename: file.filename, node: file.node }
        if (action === 'import') await run(importBackup, args)
        else if (action === 'download') await run(downloadBackup, args)
        else await run(deleteBackup, args)
      }),
    [during, run],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<BackupFile>()
    return col.columns([
      col.accessor('filename', { header: t('backup.col.filename'), size: 320, enableHiding: false, meta: { mono: true, grow: true } }),
      col.accessor('node', { header: t('backup.col.node'), size: 180, meta: { mono: true } }),
      col.accessor((file) => formatBytes(file.size), { id: 'size', header: t('backup.col.size'), size: 100, meta: { align: 'end' } }),
      col.accessor((file) => formatTime(file.created_at).text, { id: 'created_at', header: t('backup.col.createdAt'), size: 165, meta: { numeric: true } }),
      col.display({
        id: 'actions',
        header: t('backup.col.actions'),
        size: 220,
        enableHiding: false,
        meta: { label: t('backup.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <span className="row-actions">
            <button type="button" className="btn btn-ghost btn-sm" disabled={busy.has(key(row.original))} onClick={() => void act(row.original, 'import')}>
              {t('backup.import')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm" disabled={busy.has(key(row.original))} onClick={() => void act(row.original, 'download')}>
              {t('backup.download')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={busy.has(key(row.original))} onClick={() => void act(row.original, 'delete')}>
              {t('backup.delete')}
            </button>
          </span>
        ),
      }),
    ])
  }, [t, busy, act])

  return (
    <div className="page backup-page">
      <PageHeader title={t('backup.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <FileButton label={t('backup.upload')} inputLabel={t('backup.uploadFile')} accept=".gz,.tar.gz" disabled={uploading} onFile={(file) => void upload(file)} />
        <button type="button" className="btn btn-primary" onClick={() => setExporting(true)}>
          {t('backup.export')}
        </button>
      </PageHeader>
      <p className="muted">{t('backup.intro')}</p>

      <DataTable
        id="backup"
        label={t('backup.title')}
        columns={columns}
        data={data}
        getRowId={key}
        pageKeys
        loading={list.loading}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('backup.empty')}
        paging={listPaging(list, go)}
      />

      {exporting ? (
        <CommandDialog command={exportBackup} testId="backup-export" submitLabel={t('backup.export')} onDone={() => setExporting(false)} onClose={() => setExporting(false)} />
      ) : null}
    </div>
  )
}

const EMPTY: readonly BackupFile[] = []
