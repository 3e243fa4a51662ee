// The webhooks (/webhook/list): each joined from its connector, action and rule `<name>_WH_D`, with
// its trigger (topics and events), URL, the action's status, the enable switch (webhook.enable /
// webhook.disable), how many messages matched, succeeded and failed (the action's metrics, read
// again every few seconds), and its actions: settings and delete (webhook.delete). Selected rows
// (x or Space) are what webhook commands from the palette act on, and the bulk buttons'.
import { Link, useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteWebhook, disableWebhook, enableWebhook } from '../../../commands/webhooks.ts'
import { listWebhooks, webhookResourceId, type Webhook } from '../../../commands/webhookModel.ts'
import type { BridgeMetricsResponse } from '../../../contract/connectors.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { BulkButtons } from '../../ui/BulkButtons.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { useBulkSelection } from '../../ui/useBulkSelection.ts'
import { TriggerTags } from './TriggerTags.tsx'
import { StatusTag } from '../integration/parts.tsx'
import { WebhookEnableSwitch } from './webhookParts.tsx'
import './webhook.css'

/** Counts move while messages flow: the list is read again this often. */
const REFRESH_MS = 5_000

interface Row {
  webhook: Webhook
  /** Null when the action's metrics could not be read (the row still shows). */
  metrics: BridgeMetricsResponse['metrics'] | null
}

export function WebhookList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const list = useServerData(
    ['connectors', 'rules'],
    async (signal): Promise<Row[]> => {
      const webhooks = await listWebhooks(api, signal)
      const metrics = await Promise.all(
        webhooks.map((webhook) => api.connectors.actions.metrics(webhookResourceId(webhook.name), signal).then((answer) => answer.metrics, () => null)),
      )
      return webhooks.map((webhook, index) => ({ webhook, metrics: metrics[index] }))
    },
    [api],
    { intervalMs: REFRESH_MS },
  )
  const data = list.data ?? EMPTY
  const { busy, during } = useRowBusy()
  const remove = useCallback((name: string) => during(name, () => run(deleteWebhook, { name })), [during, run])

  const { selection, setSelection, selected, runOnSelected } = useBulkSelection(data, rowKey, 'name', 'webhook.entity')

  const columns = useMemo(() => {
    const col = dataTableColumns<Row>()
    const count = (key: 'matched' | 'success' | 'failed', header: string) =>
      col.accessor((row) => row.metrics?.[key], {
        id: key,
        header,
        size: 80,
        meta: { numeric: true, align: 'end' },
        cell: ({ getValue }) => <span data-metric={key}>{getValue()?.toLocaleString() ?? '—'}</span>,
      })
    return col.columns([
      col.accessor((row) => row.webhook.name, {
        id: 'name',
        header: t('webhook.col.name'),
        size: 130,
        enableHiding: false,
        meta: { mono: true },
        cell: ({ getValue }) => (
          <Link to="/webhook/$name" params={{ name: getValue() }} className="link">
            {escapeControl(getValue())}
          </Link>
        ),
      }),
      col.display({
        id: 'trigger',
        header: t('webhook.col.trigger'),
        size: 260,
        meta: { grow: true, label: t('webhook.col.trigger') },
        cell: ({ row }) => <TriggerTags trigger={row.original.webhook.trigger} shown={2} />,
      }),
      col.accessor((row) => row.webhook.url, {
        id: 'url',
        header: t('webhook.col.url'),
        size: 220,
        meta: { mono: true },
        cell: ({ row }) => (
          <span className="webhook-url" title={row.original.webhook.url}>
            <span className="webhook-method-tag">{row.original.webhook.method.toUpperCase()}</span> {escapeControl(row.original.webhook.url)}
          </span>
        ),
      }),
      col.display({
        id: 'status',
        header: t('webhook.col.status'),
        size: 100,
        meta: { label: t('webhook.col.status') },
        cell: ({ row }) => <StatusTag status={row.original.webhook.action.status} reason={row.original.webhook.action.status_reason} nodes={row.original.webhook.action.node_status} />,
      }),
      col.display({
        id: 'enable',
        header: t('webhook.col.enable'),
        size: 70,
        meta: { label: t('webhook.col.enable'), align: 'center' },
        cell: ({ row }) => <WebhookEnableSwitch name={row.original.webhook.name} enabled={row.original.webhook.enable} />,
      }),
      count('matched', t('webhook.metric.matched')),
      count('success', t('webhook.metric.success')),
      count('failed', t('webhook.metric.failed')),
      col.display({
        id: 'actions',
        header: t('webhook.col.actions'),
        size: 150,
        enableHiding: false,
        meta: { label: t('webhook.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => {
          const { name } = row.original.webhook
          return (
            <span className="webhook-row-actions">
              <Link to="/webhook/$name" params={{ name }} search={{ tab: 'settings' }} className="btn btn-ghost btn-sm">
                {t('webhook.settings')}
              </Link>
              <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={busy.has(name)} onClick={() => void remove(name)}>
                {t('webhook.delete')}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, busy, remove])

  return (
    <div className="page webhook-page">
      <PageHeader title={t('webhook.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <Link to="/webhook/create" className="btn btn-primary">
          {t('webhook.create')}
        </Link>
      </PageHeader>
      <p className="muted webhook-intro">{t('webhook.intro')}</p>
      <DataTable
        id="webhooks"
        label={t('webhook.title')}
        columns={columns}
        data={data}
        getRowId={rowKey}
        rowSelection={selection}
        onRowSelectionChange={setSelection}
        caption={
          selected.length > 0 ? (
            <BulkButtons
              className="webhook-row-actions"
              buttons={[
                { label: t('webhook.enableSelected', { count: selected.length }), onClick: () => void runOnSelected(enableWebhook) },
                { label: t('webhook.disableSelected', { count: selected.length }), onClick: () => void runOnSelected(disableWebhook) },
                { label: t('webhook.deleteSelected', { count: selected.length }), danger: true, onClick: () => void runOnSelected(deleteWebhook) },
              ]}
            />
          ) : null
        }
        onRowOpen={(row) => void navigate({ to: '/webhook/$name', params: { name: row.webhook.name } })}
        pageKeys
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('webhook.empty')}
      />
    </div>
  )
}

const EMPTY: readonly Row[] = []
const rowKey = (row: Row) => row.webhook.name
