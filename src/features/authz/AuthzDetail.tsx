// One authorization source: its status, enable switch and metrics (GET .../{type} and .../status),
// then its settings: acl.conf in an editor for file, max rules and the rules editor for the built-in
// database, the configuration for the others.
import { Link, useParams } from '@tanstack/react-router'
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { disableAuthzSource, enableAuthzSource, updateAuthzBuiltIn, updateAuthzHttp } from '../../../commands/authz.ts'
import type { AuthzSourceRead } from '../../api/authz.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import { DetailLoadState } from '../../ui/DetailLoadState.tsx'
import { FieldGrid } from '../../ui/FieldGrid.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { BuiltInRules } from './BuiltInRules.tsx'
import { FileRulesEditor } from './FileRulesEditor.tsx'
import { SourceStatusTag } from './SourceStatusTag.tsx'
import './authz.css'

const METRICS = ['total', 'allow', 'deny', 'nomatch', 'rate'] as const

export function AuthzDetail() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const { type } = useParams({ strict: false }) as { type: string }
  const detail = useServerData(
    ['authz'],
    async (signal) => {
      const [source, status] = await Promise.all([api.authz.source(type, signal), api.authz.status(type, signal).catch(() => null)])
      return { source, status }
    },
    [api, type],
  )
  const loadSource = useCallback(async (signal: AbortSignal) => api.authz.source(type, signal), [api, type])
  const notFound = detail.data === null && detail.error !== null && /not found/i.test(detail.error)
  const load = detail.data
    ? ({ kind: 'ready' } as const)
    : notFound
      ? ({ kind: 'notFound' } as const)
      : detail.error
        ? ({ kind: 'failed', message: detail.error } as const)
        : ({ kind: 'loading' } as const)
  const typeName = t(`authz.type.${type}`, { defaultValue: type })

  return (
    <div className="page authz-detail-page">
      <PageHeader title={typeName} onRefresh={detail.refresh} refreshing={detail.loading}>
        <Link to="/authorization/list" className="btn">
          {t('authz.back')}
        </Link>
      </PageHeader>
      <DetailLoadState
        load={load}
        className="authz-missing"
        notFound={t('authz.notFound', { type })}
        back={<Link to="/authorization/list">{t('authz.back')}</Link>}
        failed={t('authz.loadFailed')}
        onRetry={detail.refresh}
      />
      {detail.data ? (
        <>
          <section className="card authz-overview">
            <div className="authz-rules-toolbar">
              <SourceStatusTag status={detail.data.status?.status ?? ''} />
              <button
                type="button"
                role="switch"
                className="switch"
                aria-checked={detail.data.source.enable}
                aria-label={t('authz.enableLabel', { type })}
                onClick={() => void run(detail.data?.source.enable ? disableAuthzSource : enableAuthzSource, { type })}
              />
              <span className="muted">{t(detail.data.source.enable ? 'authz.enabled' : 'authz.disabled')}</span>
            </div>
            <div className="authz-metrics">
              {METRICS.map((name) => {
                const value = detail.data?.status?.metrics[name]
                return (
                  <div key={name} className="authz-metric" data-metric={name}>
                    <span className="muted">{t(`authz.metric.${name}`)}</span>
                    <strong>{value === undefined ? '—' : name === 'rate' ? value.toFixed(2) : value}</strong>
                  </div>
                )
              })}
            </div>
          </section>
          <h2 className="authz-section">{t('authz.settings')}</h2>
          {type === 'file' ? (
            <FileRulesEditor key={String(detail.data.source.rules)} rules={String(detail.data.source.rules ?? '')} />
          ) : type === 'built_in_database' ? (
            <>
              <CommandSettings command={updateAuthzBuiltIn} load={loadSource} toValues={builtInValues} label={t('authz.settings')} />
              <h2 className="authz-section">{t('authz.rules.title')}</h2>
              <BuiltInRules />
            </>
          ) : type === 'http' ? (
            <CommandSettings command={updateAuthzHttp} load={loadSource} toValues={httpValues} label={t('authz.settings')} />
          ) : (
            <SourceConfig source={detail.data.source} />
          )}
        </>
      ) : null}
    </div>
  )
}

/** Any other source's configuration as read, one field a line. */
function SourceConfig({ source }: { source: AuthzSourceRead }) {
  const fields = Object.entries(source)
    .filter(([key]) => key !== 'type' && key !== 'enable')
    .map(([key, value]) => ({ id: key, label: key, text: typeof value === 'string' ? value : JSON.stringify(value), mono: true }))
  return (
    <section className="card">
      <FieldGrid fields={fields} />
    </section>
  )
}

const httpValues = (source: AuthzSourceRead) => ({
  url: String(source.url ?? ''),
  method: String(source.method ?? 'post'),
  request_timeout: String(source.request_timeout ?? '30s'),
  connect_timeout: String(source.connect_timeout ?? '15s'),
  pool_size: String(source.pool_size ?? 8),
})

const builtInValues = (source: AuthzSourceRead) => ({ max_rules: String(source.max_rules ?? 100) })
