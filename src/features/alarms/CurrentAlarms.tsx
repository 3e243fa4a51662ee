// The activated alarms, with their duration running on. EMQX 5 deactivates an alarm when its
// condition clears; a row's Deactivate runs alarm.deactivate (force_deactivate), and the hint says
// that an alarm whose condition still holds is raised again.
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { deactivateAlarm } from '../../../commands/alarms.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { AlarmTabs, useAlarmColumns, useAlarmPage, useNow } from './alarmTable.tsx'
import type { Alarm } from '../../api/alarms.ts'

export function CurrentAlarms() {
  const { t } = useTranslation()
  const run = useRunCommand()
  const { busy, during } = useRowBusy()
  const alarms = useAlarmPage(true)
  const now = useNow(alarms.data.length > 0)
  const base = useAlarmColumns('current', now, alarms.at)
  const columns = useMemo(() => {
    const col = dataTableColumns<Alarm>()
    return [
      ...base,
      col.display({
        id: 'actions',
        header: t('alarms.col.actions'),
        size: 110,
        enableHiding: false,
        meta: { label: t('alarms.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={busy.has(row.original.name)}
            onClick={() => void during(row.original.name, () => run(deactivateAlarm, { name: row.original.name }))}
          >
            {t('alarms.deactivate')}
          </button>
        ),
      }),
    ]
  }, [base, t, busy, during, run])
  return (
    <div className="page alarms-page">
      <PageHeader title={t('alarms.title')} onRefresh={alarms.refresh} refreshing={alarms.loading} />
      <div className="alarms-bar">
        <AlarmTabs current="current" />
        <p className="field-hint alarms-hint">{t('alarms.manualDeactivation')}</p>
      </div>
      <DataTable
        id="alarms-current"
        label={t('alarms.current')}
        columns={columns}
        data={alarms.data}
        getRowId={(alarm) => `${alarm.node}:${alarm.name}`}
        pageKeys
        loading={alarms.loading && alarms.data.length === 0}
        error={alarms.error}
        onRetry={alarms.refresh}
        paging={alarms.paging}
        emptyText={t('alarms.noCurrent')}
      />
    </div>
  )
}
