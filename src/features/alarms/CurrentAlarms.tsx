// The activated alarms, with their duration running on. EMQX 5 deactivates an alarm only when its
// condition clears, so there is no deactivate button: the hint says so.
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../ui/DataTable.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { AlarmTabs, useAlarmColumns, useAlarmPage, useNow } from './alarmTable.tsx'

export function CurrentAlarms() {
  const { t } = useTranslation()
  const alarms = useAlarmPage(true)
  const now = useNow(alarms.data.length > 0)
  const columns = useAlarmColumns('current', now, alarms.at)
  return (
    <div className="page alarms-page">
      <PageHeader title={t('alarms.title')} onRefresh={alarms.refresh} refreshing={alarms.loading} />
      <div className="alarms-bar">
        <AlarmTabs current="current" />
        <p className="field-hint alarms-hint">{t('alarms.noManualDeactivation')}</p>
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
