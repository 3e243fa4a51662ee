// Telemetry (GET /telemetry/status, /telemetry/data): the switch runs telemetry.update and shows the
// server's answer; below it, the report the node would send (EMQX answers 404 for it while off, the
// embedded server answers it always).
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { setTelemetry } from '../../../commands/telemetry.ts'
import type { TelemetryData } from '../../api/telemetry.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { FieldGrid, type GridField } from '../../ui/FieldGrid.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { formatBytes } from '../clients/clientFields.ts'
import { formatUptime } from '../nodes/nodeFields.ts'
import './telemetry.css'

export function Telemetry() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const status = useServerData(['telemetry'], (signal) => api.telemetry.status(signal), [api])
  const report = useServerData(['telemetry'], (signal) => api.telemetry.data(signal), [api])
  const enabled = status.data?.enable ?? false

  const fields = useMemo((): GridField[] => {
    const data: TelemetryData | null = report.data
    if (!data) return []
    const field = (id: string, text: string | number | undefined, mono = false): GridField => ({ id, label: t(`telemetry.field.${id}`), text: text === undefined ? '—' : String(text), mono })
    return [
      field('emqx_version', data.emqx_version, true),
      field('edition', data.license.edition),
      field('os', `${data.os_name} ${data.os_version}`),
      field('otp_version', data.otp_version, true),
      field('up_time', formatUptime(data.up_time, t)),
      field('uuid', data.uuid, true),
      field('cluster_uuid', data.cluster_uuid, true),
      field('num_clients', data.num_clients),
      field('messages_received', data.messages_received),
      field('messages_sent', data.messages_sent),
      field('num_cpus', data.vm_specs?.num_cpus),
      field('total_memory', data.vm_specs ? formatBytes(data.vm_specs.total_memory) : undefined),
      field('active_plugins', data.active_plugins.length > 0 ? data.active_plugins.join(', ') : '—'),
    ]
  }, [report.data, t])

  return (
    <div className="page telemetry-page">
      <PageHeader
        title={t('telemetry.title')}
        onRefresh={() => {
          status.refresh()
          report.refresh()
        }}
        refreshing={status.loading || report.loading}
      />
      <section className="card telemetry-status">
        <button
          type="button"
          role="switch"
          className="switch"
          aria-checked={enabled}
          aria-label={t('telemetry.enable')}
          disabled={status.data === null}
          onClick={() => void run(setTelemetry, { enable: !enabled })}
        />
        <span>{t(enabled ? 'telemetry.on' : 'telemetry.off')}</span>
      </section>
      <p className="muted">{t('telemetry.intro')}</p>
      <h2 className="telemetry-section">{t('telemetry.report')}</h2>
      {report.error ? (
        <div className="card telemetry-failed" role="alert">
          <strong>{t('telemetry.failed')}</strong>
          <span className="muted">{report.error}</span>
          <button type="button" className="btn btn-sm" onClick={report.refresh}>
            {t('table.retry')}
          </button>
        </div>
      ) : report.loading && !report.data ? (
        <p className="muted">{t('table.loading')}</p>
      ) : null}
      {report.data ? (
        <>
          <FieldGrid fields={fields} />
          <details className="telemetry-raw">
            <summary>{t('telemetry.raw')}</summary>
            <pre className="mono">{JSON.stringify(report.data, null, 2)}</pre>
          </details>
        </>
      ) : null}
    </div>
  )
}
