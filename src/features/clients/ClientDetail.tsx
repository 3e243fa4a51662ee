// One client: connection, session, process and traffic, its subscriptions, and kick.
import { Link, useNavigate, useParams } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { kickClient } from '../../../commands/clients.ts'
import type { Client } from '../../api/clients.ts'
import { ApiError } from '../../../contract/api-error.ts'
import type { Subscription } from '../../api/subscriptions.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useCommandDefaults } from '../../state/commandContext.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { DetailLoadState } from '../../ui/DetailLoadState.tsx'
import { FieldGrid } from '../../ui/FieldGrid.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { detailGroups, showTraffic, trafficRows, type Translate } from './clientFields.ts'
import { errorText } from '../../ui/errorText.ts'
import './clients.css'

/** What was loaded, and for which id: another client's answer never shows under this one's name. */
type Load = { id: string } & (
  | { kind: 'loading' }
  | { kind: 'ready'; client: Client; subscriptions: readonly Subscription[]; subscriptionsError: string | null }
  | { kind: 'notFound' }
  | { kind: 'failed'; message: string }
)

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.code === 'CLIENTID_NOT_FOUND')
}

export function ClientDetail() {
  const { t } = useTranslation()
  const tr: Translate = t
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const params: { clientId?: string } = useParams({ strict: false })
  const clientId = params.clientId ?? ''

  // The read settles as a Load (a failure too), so the last one is always this id's latest outcome.
  const loaded = useServerData(
    ['clients', 'subscriptions'],
    async (signal): Promise<Load> => {
      const subscriptions = api.clients.subscriptions(clientId, signal).then(
        (list) => ({ list, error: null }),
        (error: unknown) => ({ list: [] as Subscription[], error: errorText(error) }),
      )
      try {
        const client = await api.clients.get(clientId, signal)
        const subs = await subscriptions
        return { id: clientId, kind: 'ready', client, subscriptions: subs.list, subscriptionsError: subs.error }
      } catch (error) {
        return isNotFound(error) ? { id: clientId, kind: 'notFound' } : { id: clientId, kind: 'failed', message: errorText(error) }
      }
    },
    [api, clientId],
  )
  const load: Load = loaded.data?.id === clientId ? loaded.data : { id: clientId, kind: 'loading' }
  const refresh = loaded.refresh
  const [kicking, setKicking] = useState(false)
  // Client commands run from the palette here default to this client.
  useCommandDefaults(clientId ? { clientid: clientId } : null)

  const kick = async () => {
    setKicking(true)
    const outcome = await run(kickClient, { clientid: clientId })
    setKicking(false)
    if (outcome.ok) void navigate({ to: '/clients/list' })
  }

  const subscriptionColumns = useMemo(() => {
    const col = dataTableColumns<Subscription>()
    const flag = (value: number | boolean | undefined) => (value === undefined ? '—' : t(value ? 'clients.yes' : 'clients.no'))
    return col.columns([
      col.accessor('topic', { header: t('clients.sub.topic'), size: 260, meta: { mono: true, grow: true }, enableHiding: false }),
      col.accessor('qos', { header: t('clients.sub.qos'), size: 70, meta: { align: 'end' } }),
      col.accessor('nl', { header: t('clients.sub.nl'), size: 100, cell: ({ getValue }) => flag(getValue()) }),
      col.accessor('rap', { header: t('clients.sub.rap'), size: 150, cell: ({ getValue }) => flag(getValue()) }),
      col.accessor('rh', {
        header: t('clients.sub.rh'),
        size: 200,
        cell: ({ getValue }) => {
          const rh = getValue()
          return rh === 0 || rh === 1 || rh === 2 ? `${rh} · ${t(`clients.sub.rh${rh}`)}` : '—'
        },
      }),
      col.accessor((s) => s.node ?? '', { id: 'node', header: t('clients.field.node'), size: 170, meta: { mono: true, hidden: true } }),
    ])
  }, [t])

  const client = load.kind === 'ready' ? load.client : null

  return (
    <div className="page client-detail">
      <div className="page-header">
        <div className="client-detail-title">
          <Link to="/clients/list" className="client-back">
            ← {t('clients.back')}
          </Link>
          <h1>
            <span className="mono">{escapeControl(clientId)}</span>
            {client ? (
              client.connected ? (
                <span className="tag tag-success">{t('clients.connected')}</span>
              ) : (
                <span className="tag tag-muted">{t('clients.disconnected')}</span>
              )
            ) : null}
          </h1>
        </div>
        <div>
          <button type="button" className="btn" onClick={refresh} disabled={loaded.loading}>
            {t('clients.refresh')}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void kick()} disabled={load.kind === 'loading' || load.kind === 'notFound' || kicking}>
            {t('clients.kick')}
          </button>
        </div>
      </div>

      <DetailLoadState
        load={load}
        className="client-detail-error"
        notFound={t('clients.notExist')}
        back={<Link to="/clients/list">{t('clients.backToList')}</Link>}
        failed={t('clients.detailError')}
        onRetry={refresh}
      />

      {client && load.kind === 'ready' ? (
        <>
          <div className="client-groups">
            {detailGroups.map((group) => (
              <section key={group.id} className={`card client-group client-group-${group.id}`} aria-labelledby={`client-group-${group.id}`}>
                <h2 className="card-title" id={`client-group-${group.id}`}>
                  {t(group.title)}
                </h2>
                <FieldGrid
                  pairClassName="client-pair"
                  fields={group.items.map((entry) => ({ id: entry.id, label: t(entry.label), mono: entry.mono, ...entry.show(client, tr) }))}
                />
              </section>
            ))}

            <section className="card client-group" aria-labelledby="client-group-traffic">
              <h2 className="card-title" id="client-group-traffic">
                {t('clients.group.traffic')}
              </h2>
              <table className="table client-traffic">
                <thead>
                  <tr>
                    <th scope="col">{t('clients.traffic.metric')}</th>
                    <th scope="col" className="num">
                      {t('clients.traffic.received')}
                    </th>
                    <th scope="col" className="num">
                      {t('clients.traffic.sent')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {trafficRows.map((row) => {
                    const received = showTraffic(client, row.received, row.bytes ?? false)
                    const sent = showTraffic(client, row.sent, row.bytes ?? false)
                    return (
                      <tr key={row.id} className={row.level ? `level-${row.level}` : undefined}>
                        <th scope="row">{t(row.label)}</th>
                        <td className="num" title={received?.title}>
                          {received ? received.text : ''}
                        </td>
                        <td className="num" title={sent?.title}>
                          {sent ? sent.text : ''}
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </section>
          </div>

          <section className="client-subscriptions" aria-labelledby="client-subscriptions">
            <h2 id="client-subscriptions">
              {t('clients.subscriptions')}
              <span className="muted">{t('common.count', { count: load.subscriptions.length })}</span>
            </h2>
            <DataTable
              id="client-subscriptions"
              label={t('clients.subscriptions')}
              columns={subscriptionColumns}
              data={load.subscriptions}
              getRowId={(s) => s.topic}
              error={load.subscriptionsError}
              onRetry={refresh}
              maxHeight="360px"
            />
          </section>
        </>
      ) : null}
    </div>
  )
}
