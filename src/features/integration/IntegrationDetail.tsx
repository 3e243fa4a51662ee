// One connector (/connector/$id), action (/rule/actions/$id) or source (/rule/sources/$id): the
// header (name, type, status, enable switch, Start or Reconnect, Duplicate, Delete) and two tabs in
// the URL (`?tab=settings`, as the list's Settings opens it). Overview: each node's status with its
// reason, an action's or source's metrics, the rules using it, a connector's actions and sources.
// Commands run from the palette here default to this id.
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../contract/api-error.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { useCommandDefaults } from '../../state/commandContext.ts'
import { DetailHeader } from '../../ui/DetailHeader.tsx'
import { DetailLoadState, type DetailLoadKind } from '../../ui/DetailLoadState.tsx'
import { errorText } from '../../ui/errorText.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import { TabPanel, Tabs } from '../../ui/Tabs.tsx'
import { BridgeMetrics } from './BridgeMetrics.tsx'
import { ConnectorUsers, UsedBy } from './IntegrationList.tsx'
import { IntegrationSettings } from './IntegrationSettings.tsx'
import { canReconnect, KIND_INFO, readItem, type IntegrationItem, type IntegrationKind } from './kinds.ts'
import { IntegrationEnableSwitch, StatusTag, statusLabel, typeLabel, useDeleteIntegration } from './parts.tsx'
import '../../ui/metrics.css'
import './integration.css'

const TABS = ['overview', 'settings'] as const
type Tab = (typeof TABS)[number]
/** The status moves (a target going down): the header is read again this often. */
const STATUS_POLL_MS = 5_000

type Load = { key: string } & (DetailLoadKind & ({ kind: 'loading' | 'notFound' | 'failed' } | { kind: 'ready'; item: IntegrationItem }))

export function ConnectorDetail() {
  return <IntegrationDetail kind="connectors" />
}
export function ActionDetail() {
  return <IntegrationDetail kind="actions" />
}
export function SourceDetail() {
  return <IntegrationDetail kind="sources" />
}

function IntegrationDetail({ kind }: { kind: IntegrationKind }) {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const info = KIND_INFO[kind]
  const params: { id?: string } = useParams({ strict: false })
  const id = params.id ?? ''
  const key = `${kind} ${id}`
  const search: { tab?: unknown } = useSearch({ strict: false })
  const tab: Tab = search.tab === 'settings' ? 'settings' : 'overview'
  const loaded = useServerData(
    ['connectors'],
    async (signal): Promise<Load> => {
      try {
        return { key, kind: 'ready', item: await readItem(api, kind, id, signal) }
      } catch (error) {
        return error instanceof ApiError && error.status === 404 ? { key, kind: 'notFound' } : { key, kind: 'failed', message: errorText(error) }
      }
    },
    [api, kind, id],
    { intervalMs: STATUS_POLL_MS },
  )
  const load: Load = loaded.data?.key === key ? loaded.data : { key, kind: 'loading' }
  useCommandDefaults(id ? { id } : null)
  const deleteItem = useDeleteIntegration(kind)

  const back = (
    <Link to={info.listPath} className="link">
      {t(`integration.backTo.${kind}`)}
    </Link>
  )
  if (load.kind !== 'ready')
    return (
      <div className="page integration-page">
        <DetailLoadState
          load={load}
          className="integration-detail-error"
          notFound={t(`integration.notFound.${info.one}`, { id })}
          back={back}
          failed={t('integration.loadFailed')}
          onRetry={loaded.refresh}
        />
      </div>
    )

  const { item } = load
  const remove = async () => {
    const outcome = await deleteItem(item.id)
    if (outcome.ok) void navigate({ to: info.listPath })
  }
  const showTab = (next: Tab) => void navigate({ to: info.detailPath, params: { id }, search: next === 'overview' ? {} : { tab: next }, replace: true })

  return (
    <div className="page integration-page integration-detail">
      <DetailHeader
        title={
          <>
            <span className="mono">{escapeControl(item.name)}</span>
            <span className="muted integration-detail-type">{typeLabel(t, item.type)}</span>
            <StatusTag status={item.status} reason={item.status_reason} nodes={item.node_status} />
          </>
        }
        before={<IntegrationEnableSwitch kind={kind} id={item.id} enabled={item.enable} />}
        onRefresh={loaded.refresh}
        back={back}
      >
        <button type="button" className="btn" disabled={!item.enable} onClick={() => void run(info.commands.start, { id: item.id })}>
          {t(canReconnect(item) ? 'integration.reconnect' : 'integration.start')}
        </button>
        <Link to={info.createPath} search={{ from: item.id }} className="btn">
          {t('integration.duplicate')}
        </Link>
        <button type="button" className="btn btn-danger" onClick={() => void remove()}>
          {t('integration.delete')}
        </button>
      </DetailHeader>
      <Tabs tabs={TABS} selected={tab} onSelect={showTab} label={t('integration.tabsLabel')} idPrefix="integration" text={(name) => t(`integration.tab.${name}`)} />
      <TabPanel idPrefix="integration" selected={tab}>
        {tab === 'overview' ? <Overview kind={kind} item={item} /> : <IntegrationSettings kind={kind} id={item.id} />}
      </TabPanel>
    </div>
  )
}

function Overview({ kind, item }: { kind: IntegrationKind; item: IntegrationItem }) {
  const { t } = useTranslation()
  return (
    <div className="integration-overview">
      <section className="card" aria-labelledby="integration-about">
        <h2 className="card-title" id="integration-about">
          {t('integration.about')}
        </h2>
        <dl className="integration-facts">
          <div>
            <dt className="muted">{t('integration.col.type')}</dt>
            <dd>
              {typeLabel(t, item.type)} <span className="muted mono">{item.type}</span>
            </dd>
          </div>
          {item.connector !== undefined ? (
            <div>
              <dt className="muted">{t('integration.col.connector')}</dt>
              <dd>
                <Link to="/connector/$id" params={{ id: `${item.type}:${item.connector}` }} className="link mono">
                  {escapeControl(item.connector)}
                </Link>
              </dd>
            </div>
          ) : null}
          {kind === 'connectors' ? (
            <div>
              <dt className="muted">{t('integration.col.usedBy')}</dt>
              <dd>
                <ConnectorUsers item={item} />
              </dd>
            </div>
          ) : (
            <div>
              <dt className="muted">{t('integration.col.rules')}</dt>
              <dd>
                <UsedBy ids={item.rules} />
              </dd>
            </div>
          )}
          {item.description ? (
            <div>
              <dt className="muted">{t('integration.col.description')}</dt>
              <dd>{escapeControl(item.description)}</dd>
            </div>
          ) : null}
        </dl>
      </section>
      <section className="card" aria-labelledby="integration-nodes">
        <h2 className="card-title" id="integration-nodes">
          {t('integration.nodeStatus')}
        </h2>
        <div className="node-metrics-scroll">
          <table className="node-metrics">
            <thead>
              <tr>
                <th scope="col">{t('integration.node')}</th>
                <th scope="col">{t('integration.col.status')}</th>
                <th scope="col">{t('integration.statusReason')}</th>
              </tr>
            </thead>
            <tbody>
              {item.node_status.map((node) => (
                <tr key={node.node} data-node={node.node}>
                  <td className="mono">{node.node}</td>
                  <td>
                    <StatusTag status={node.status} reason={node.status_reason} nodes={[]} />
                  </td>
                  <td className="integration-reason">{node.status_reason ? escapeControl(node.status_reason) : <span className="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {item.status_reason && item.node_status.every((n) => !n.status_reason) ? (
          <p className="muted metric-note">
            {statusLabel(t, item.status)}: {escapeControl(item.status_reason)}
          </p>
        ) : null}
      </section>
      {kind === 'connectors' ? null : <BridgeMetrics kind={kind} id={item.id} />}
    </div>
  )
}
