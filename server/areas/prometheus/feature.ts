// The Prometheus integration's state: its settings and the push to a Pushgateway every `interval`
// (emqx_prometheus's timer): a PUT or POST of every registry in the text format to
// `<url>/metrics/job/<job_name>`, the job name's `${name}`, `${host}` and `${cluster_name}` filled
// from the node name (`emqx@127.0.0.1`: name emqx, host 127.0.0.1) as EMQX's join_url/2 does.
import * as v from 'valibot'
import { intervalMs, PrometheusConfigSchema, type PrometheusConfig } from '../../../contract/prometheus.ts'
import { parseTemplate, renderTemplate } from '../../backends/template.ts'
import { log } from '../../log/index.ts'
import type { Scraper } from './scraper.ts'

export const defaultPrometheusConfig: PrometheusConfig = v.parse(PrometheusConfigSchema, {})

/** EMQX's default `cluster.name`; the embedded server is a cluster of one under that name. */
const CLUSTER_NAME = 'emqxcl'

/** The URL a push goes to, for a node named `node`. */
export function pushUrl(config: PrometheusConfig['push_gateway'], node: string): string {
  const [name, host = ''] = node.split('@')
  const job = renderTemplate(parseTemplate(config.job_name, ['name', 'host', 'cluster_name']), { name, host, cluster_name: CLUSTER_NAME })
  return `${config.url}/metrics/job/${job}`
}

export class PrometheusFeature {
  readonly scraper: Scraper
  private readonly node: string
  private settings: PrometheusConfig = defaultPrometheusConfig
  private timer: NodeJS.Timeout | undefined
  /** Pushes that the gateway accepted and that failed, as emqx_prometheus counts them. */
  readonly pushes = { ok: 0, failed: 0 }

  constructor(scraper: Scraper, node: string) {
    this.scraper = scraper
    this.node = node
  }

  get config(): PrometheusConfig {
    return this.settings
  }

  configure(config: PrometheusConfig): void {
    this.settings = config
    this.stopPushing()
    const push = config.push_gateway
    if (!push.enable || push.url === '') return
    this.timer = setInterval(() => void this.push(), intervalMs(push.interval))
    this.timer.unref()
  }

  /** One push now; resolves once the gateway answered (or failed). */
  async push(): Promise<boolean> {
    const push = this.settings.push_gateway
    const url = pushUrl(push, this.node)
    try {
      const body = await this.scraper.all()
      const response = await fetch(url, {
        method: push.method.toUpperCase(),
        headers: { ...push.headers, 'content-type': 'text/plain' },
        body,
        signal: AbortSignal.timeout(60_000),
      })
      await response.body?.cancel()
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`)
      this.pushes.ok++
      return true
    } catch (error) {
      this.pushes.failed++
      log.error({ url, reason: error instanceof Error ? error.message : String(error) }, 'post_to_push_gateway_failed')
      return false
    }
  }

  stop(): void {
    this.stopPushing()
  }

  private stopPushing(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }
}
