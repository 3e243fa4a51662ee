// The deactivated alarms (the history), with when each was cleared; Clear history runs alarm.clear.
import { useTranslation } from 'react-i18next'
import { clearAlarmHistory } from '../../../commands/alarms.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { DataTable } from '../../ui/DataTable.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { AlarmTabs, useAlarmColumns, useAlarmPage } from './alarmTable.tsx'

export function AlarmHistory() {
  const { t } = useTranslation()
  const run = useRunCommand()
  const alarms = useAlarmPage(false)
  const columns = useAlarmColumns('history', 0, alarms.at)
  return (
    <div className="page alarms-page">
      <PageHeader title={t('alarms.historyTitle')} onRefresh={alarms.refresh} refreshing={alarms.loading}>
        <button
          type="button"
          className="btn btn-danger"
          disabled={alarms.data.length === 0 && alarms.paging.page === 1}
          onClick={() => void run(clearAlarmHistory, {})}
        >
          {t('alarms.clearHistory')}
        </button>
      </PageHeader>
      <div className="alarms-bar">
        <AlarmTabs current="history" />
      </div>
      <DataTable
        id="alarms-history"
        label={t('alarms.history')}
        columns={columns}
        data={alarms.data}
        getRowId={(alarm) => `${alarm.node}:${alarm.name}:${alarm.activate_at}`}
        pageKeys
        loading={alarms.loading && alarms.data.length === 0}
        error={alarms.error}
        onRetry={alarms.refresh}
        paging={alarms.paging}
        emptyText={t('alarms.noHistory')}
      />
    </div>
  )
}
