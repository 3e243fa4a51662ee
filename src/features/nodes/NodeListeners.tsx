// The node detail's listeners (GET /listeners): each listener's address, and on this node whether it
// runs and its current against its maximum connections.
import { useTranslation } from 'react-i18next'
import { statusOnNode, type Listener, type ListenerStatus } from '../../api/listeners.ts'

function RunningTag({ listener, status }: { listener: Listener; status: ListenerStatus | undefined }) {
  const { t } = useTranslation()
  if (listener.enable === false) return <span className="tag tag-muted">{t('nodes.listeners.disabled')}</span>
  const running = status?.running
  if (running === undefined) return <>—</>
  if (running === 'inconsistent') return <span className="tag tag-warning">{t('nodes.listeners.inconsistent')}</span>
  return <span className={`tag ${running ? 'tag-success' : 'tag-muted'}`}>{t(running ? 'nodes.running' : 'nodes.stopped')}</span>
}

export function NodeListeners({ node, listeners, error, onRetry }: { node: string; listeners: readonly Listener[] | null; error: string | null; onRetry: () => void }) {
  const { t } = useTranslation()
  const max = (value: number | string | undefined) =>
    value === undefined ? '—' : value === 'infinity' ? t('nodes.listeners.unlimited') : typeof value === 'number' ? value.toLocaleString() : value

  return (
    <section className="node-section" aria-labelledby="node-listeners">
      <h2 id="node-listeners">{t('nodes.listeners.title')}</h2>
      {error ? (
        <div className="node-listeners-error" role="alert">
          <span className="muted">{t('nodes.listeners.error', { message: error })}</span>
          <button type="button" className="btn btn-sm" onClick={onRetry}>
            {t('table.retry')}
          </button>
        </div>
      ) : null}
      {listeners && listeners.length === 0 ? <p className="muted">{t('nodes.listeners.none')}</p> : null}
      {listeners && listeners.length > 0 ? (
        <table className="table node-listeners">
          <thead>
            <tr>
              <th scope="col">{t('nodes.listeners.id')}</th>
              <th scope="col">{t('nodes.listeners.type')}</th>
              <th scope="col">{t('nodes.listeners.bind')}</th>
              <th scope="col">{t('nodes.listeners.status')}</th>
              <th scope="col" className="num">
                {t('nodes.listeners.connections')}
              </th>
            </tr>
          </thead>
          <tbody>
            {listeners.map((listener) => {
              const status = statusOnNode(listener, node)
              const current = status?.current_connections
              return (
                <tr key={listener.id} data-listener={listener.id}>
                  <th scope="row">
                    <span className="mono">{listener.id}</span>
                  </th>
                  <td>{listener.type.toUpperCase()}</td>
                  <td className="mono">{listener.bind ?? '—'}</td>
                  <td>
                    <RunningTag listener={listener} status={status} />
                  </td>
                  <td className="num" data-col="connections">
                    {current === undefined ? '—' : current.toLocaleString()} / {max(status?.max_connections)}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      ) : null}
    </section>
  )
}
