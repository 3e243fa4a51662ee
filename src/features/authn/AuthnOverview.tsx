// An authenticator's status and counts: the cluster's, then each node's with its error if any.
import { useTranslation } from 'react-i18next'
import type { AnyAuthenticator, AuthnStatusAnswer } from '../../api/authn.ts'
import { StatusTag } from './authnParts.tsx'

const COUNTS = ['total', 'success', 'failed', 'nomatch'] as const

export function AuthnOverview({ authenticator, status }: { authenticator: AnyAuthenticator; status: AuthnStatusAnswer | null }) {
  const { t } = useTranslation()
  if (!status) return <p className="muted">{t('authn.noStatus')}</p>
  const { metrics } = status
  return (
    <div className="authn-overview">
      <div className="authn-metrics">
        <div className="card authn-metric">
          <div className="muted">{t('authn.col.status')}</div>
          <div className="value">
            <StatusTag enabled={authenticator.enable} status={status.status} />
          </div>
        </div>
        {COUNTS.map((name) => (
          <div key={name} className="card authn-metric">
            <div className="muted">{t(`authn.metric.${name}`)}</div>
            <div className="value">{metrics[name].toLocaleString()}</div>
          </div>
        ))}
        <div className="card authn-metric">
          <div className="muted">{t('authn.metric.rate')}</div>
          <div className="value">{t('authn.perSecond', { rate: metrics.rate.toFixed(2) })}</div>
          <div className="muted">{t('authn.rateMax', { rate: metrics.rate_max.toFixed(2), last5m: metrics.rate_last5m.toFixed(2) })}</div>
        </div>
      </div>
      <table className="authn-nodes">
        <caption className="muted">{t('authn.nodes')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('authn.node')}</th>
            <th scope="col">{t('authn.col.status')}</th>
            {COUNTS.map((name) => (
              <th key={name} scope="col">
                {t(`authn.metric.${name}`)}
              </th>
            ))}
            <th scope="col">{t('authn.metric.rate')}</th>
            <th scope="col">{t('authn.nodeError')}</th>
          </tr>
        </thead>
        <tbody>
          {status.node_status.map(({ node, status: nodeStatus }) => {
            const nodeMetrics = status.node_metrics.find((entry) => entry.node === node)?.metrics
            const reason = status.node_error.find((entry) => entry.node === node)?.reason
            return (
              <tr key={node}>
                <td className="mono">{node}</td>
                <td>
                  <StatusTag enabled={authenticator.enable} status={nodeStatus} />
                </td>
                {COUNTS.map((name) => (
                  <td key={name} className="numeric">
                    {nodeMetrics ? nodeMetrics[name].toLocaleString() : '—'}
                  </td>
                ))}
                <td className="numeric">{nodeMetrics ? t('authn.perSecond', { rate: nodeMetrics.rate.toFixed(2) }) : '—'}</td>
                <td>{reason ?? '—'}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
