// Real monitoring servers for the Prometheus integration's tests: Debian's `prometheus` scraping the
// embedded server and `prometheus-pushgateway` receiving its pushes, each on a free loopback port
// with its files in a throwaway directory, stopped afterwards. Nothing is mocked. `.ci/run` installs
// the packages; elsewhere `apt-get install -y prometheus prometheus-pushgateway`. Without them a
// test is skipped, except in CI, where it fails.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import bcrypt from 'bcryptjs'
import { freePort, run, stopChild, tempDir, waitForPort } from './db-servers.ts'

export type MonitoringKind = 'prometheus' | 'pushgateway'

const PROGRAMS: Record<MonitoringKind, string> = { prometheus: '/usr/bin/prometheus', pushgateway: '/usr/bin/prometheus-pushgateway' }

/** Whether the server's program is installed; in CI a missing one is an error, not a skip. */
export function hasMonitoringServer(kind: MonitoringKind): boolean {
  const installed = existsSync(PROGRAMS[kind])
  if (!installed && process.env.CI) throw new Error(`${kind} is not installed, and CI must test against it (.ci/run installs it)`)
  return installed
}

export interface MonitoringServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  stop(): Promise<void>
}

export interface PrometheusServer extends MonitoringServer {
  /** An instant query through the HTTP API: the samples' labels and values. */
  query(expr: string): Promise<Array<{ metric: Record<string, string>; value: number }>>
}

/** Prometheus scraping `target` (`host:port`) at `metricsPath` every second. */
export async function startPrometheus(target: string, metricsPath: string): Promise<PrometheusServer> {
  const dir = tempDir('prometheus')
  const port = await freePort()
  const config = join(dir, 'prometheus.yml')
  writeFileSync(
    config,
    ['global:', '  scrape_interval: 1s', 'scrape_configs:', '  - job_name: emqx', `    metrics_path: ${metricsPath}`, '    static_configs:', `      - targets: ['${target}']`, ''].join('\n'),
  )
  const server = run(PROGRAMS.prometheus, [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`])
  await waitForPort(port, server.child, 'prometheus', server.output)
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    async query(expr) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`)
      const body = (await response.json()) as { data?: { result?: Array<{ metric: Record<string, string>; value: [number, string] }> } }
      return (body.data?.result ?? []).map((row) => ({ metric: row.metric, value: Number(row.value[1]) }))
    },
    stop: () => stopChild(server.child, dir),
  }
}

/** A Pushgateway without persistence; with `basicAuth`, it refuses requests without that user and password. */
export async function startPushgateway(options: { basicAuth?: { user: string; password: string } } = {}): Promise<MonitoringServer> {
  const dir = tempDir('pushgateway')
  const port = await freePort()
  // Debian's default keeps pushes in /var/lib/prometheus/pushgateway.data across runs; empty keeps them in memory.
  const args = [`--web.listen-address=127.0.0.1:${port}`, '--persistence.file=']
  if (options.basicAuth) {
    const webConfig = join(dir, 'web.yml')
    writeFileSync(webConfig, `basic_auth_users:\n  ${options.basicAuth.user}: '${bcrypt.hashSync(options.basicAuth.password, 4)}'\n`)
    args.push(`--web.config.file=${webConfig}`)
  }
  const server = run(PROGRAMS.pushgateway, args)
  await waitForPort(port, server.child, 'prometheus-pushgateway', server.output)
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(server.child, dir) }
}
