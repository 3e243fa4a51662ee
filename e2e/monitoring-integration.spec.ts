// Monitoring integration (/monitoring/integration): the Prometheus tab's forms run prometheus.update
// and prometheus.pushGateway (the server then asks for credentials on the scrape endpoints, and
// keeps the Pushgateway settings), the scrape configuration names the metrics path, and the
// OpenTelemetry tab runs opentelemetry.update; in English and Chinese.
import { test, expect } from '@playwright/test'
import { apiHeaders, login } from './support/login.ts'

test('the Prometheus tab sets basic auth and the Pushgateway through their commands', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/prometheus', { headers })).json()
  try {
    await login(page, '/monitoring/integration')
    await expect(page.getByRole('heading', { name: 'Monitoring Integration' })).toBeVisible()
    await expect(page.getByRole('tab', { name: 'Prometheus' })).toHaveAttribute('aria-selected', 'true')

    const auth = page.getByRole('form', { name: 'Scrape endpoints' })
    await auth.getByRole('switch', { name: /Basic auth on the scrape endpoints/ }).click()
    await auth.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await request.get('/api/v5/prometheus/stats')).status()).toBe(401)

    const push = page.getByRole('form', { name: 'Pushgateway' })
    const url = push.getByRole('textbox', { name: /Pushgateway address/ })
    await expect(url).toHaveValue(before.push_gateway.url)
    await url.fill('')
    await push.getByRole('button', { name: 'Save' }).click()
    await expect(push.getByText('Pushgateway address is required')).toBeVisible()
    await url.fill('http://10.9.8.7:9091')
    await push.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(async () => ((await (await request.get('/api/v5/prometheus', { headers })).json()) as { push_gateway: { url: string } }).push_gateway.url)
      .toBe('http://10.9.8.7:9091')

    const scrape = page.getByRole('region', { name: 'Prometheus scrape configuration' })
    await expect(scrape).toContainText('metrics_path: /api/v5/prometheus/stats')

    await page.evaluate(() => localStorage.setItem('lang', 'zh'))
    await page.reload()
    await expect(page.getByRole('heading', { name: '监控集成' })).toBeVisible()
    await expect(page.getByRole('form', { name: 'Pushgateway' }).getByRole('textbox', { name: /Pushgateway 地址/ })).toHaveValue('http://10.9.8.7:9091')
    await expect(page.getByRole('region', { name: 'Prometheus 抓取配置' })).toBeVisible()
  } finally {
    await request.put('/api/v5/prometheus', { headers, data: before })
  }
})

test('the OpenTelemetry tab sets the exporter and the pipelines through opentelemetry.update', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/opentelemetry', { headers })).json()
  try {
    await login(page, '/monitoring/integration')
    await page.getByRole('tab', { name: 'OpenTelemetry' }).click()
    const form = page.getByRole('form', { name: 'OpenTelemetry' })
    await form.getByRole('textbox', { name: /Exporter endpoint/ }).fill('http://127.0.0.1:14317')
    await form.getByRole('combobox', { name: /Log level/ }).selectOption('error')
    await form.getByRole('combobox', { name: /Trace mode/ }).selectOption({ label: 'End-to-end' })
    await form.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(async () => (await (await request.get('/api/v5/opentelemetry', { headers })).json()) as Record<string, Record<string, unknown>>)
      .toMatchObject({ exporter: { endpoint: 'http://127.0.0.1:14317' }, logs: { level: 'error' }, traces: { filter: { trace_mode: 'e2e' } } })

    const whitelist = page.getByRole('form', { name: 'End-to-end tracing whitelist' })
    await whitelist.getByRole('textbox', { name: /Client IDs/ }).fill('sensor-1, sensor-2')
    await whitelist.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await request.get('/api/v5/opentelemetry/whitelist/clientid', { headers })).json()).toEqual(['sensor-1', 'sensor-2'])
  } finally {
    await request.put('/api/v5/opentelemetry', { headers, data: before })
    await request.delete('/api/v5/opentelemetry/whitelist/clientid', { headers })
  }
})
