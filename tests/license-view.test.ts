// The license card's content from EMQX enterprise GET /license bodies (5.8 with max_connections,
// 5.9 with max_sessions) and the cluster's /monitor_current, in both languages.
import i18next from 'i18next'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { licenseSchema } from '../src/api/license.ts'
import { monitorCurrentSchema } from '../src/api/monitor.ts'
import { licenseView } from '../src/features/dashboard/licenseView.ts'
import en from '../locales/en.json' with { type: 'json' }
import zh from '../locales/zh.json' with { type: 'json' }

const i18n = i18next.createInstance()
void i18n.init({ resources: { en: { translation: en }, zh: { translation: zh } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } })
const tEn = i18n.getFixedT('en')
const tZh = i18n.getFixedT('zh')

// The sample answer in EMQX's emqx_license_http_api (max_connections, before 5.9).
const trial = v.parse(licenseSchema, {
  customer: 'Foo',
  customer_type: 10,
  deployment: 'bar-deployment',
  email: 'contact@foo.com',
  expiry: false,
  expiry_at: '2295-10-27',
  max_connections: 10,
  start_at: '2022-01-11',
  type: 'trial',
})
// EMQX 5.9 counts sessions; an official license that has run out.
const expiredOfficial = v.parse(licenseSchema, {
  customer: 'ACME Corp',
  email: 'ops@acme.example',
  deployment: 'acme-prod',
  customer_type: 0,
  type: 'official',
  max_sessions: 100000,
  max_tps: 'infinity',
  start_at: '2024-05-01',
  expiry_at: '2025-05-01',
  expiry: true,
})
const current = v.parse(monitorCurrentSchema, { connections: 1530, live_connections: 4, subscriptions: 40, license_quota: 10 })

const values = (view: ReturnType<typeof licenseView>) => Object.fromEntries(view.rows.map((row) => [row.id, `${row.label}: ${row.value}`]))

describe('licenseView', () => {
  it('shows a 5.8 trial license with live connections against max_connections', () => {
    const view = licenseView(trial, current, tEn, 'en')
    expect(view).toMatchObject({ trial: true, expired: false })
    expect(values(view)).toEqual({
      customer: 'Customer: Foo',
      email: 'Email: contact@foo.com',
      type: 'Type: Trial',
      limit: 'Max connections: 10',
      usage: 'Usage: 4 / 10 (40%)',
      startAt: 'Issued: 2022-01-11',
      expiryAt: 'Expires: 2295-10-27',
    })
  })

  it('shows a 5.9 expired official license with sessions against max_sessions, in Chinese', () => {
    const view = licenseView(expiredOfficial, current, tZh, 'zh')
    expect(view).toMatchObject({ trial: false, expired: true })
    expect(values(view)).toMatchObject({
      type: '类型: 正式',
      limit: '最大会话数: 100,000',
      usage: '使用量: 1,530 / 100,000 (2%)',
      expiryAt: '到期日期: 2025-05-01',
    })
  })

  it('leaves usage and missing fields as a dash until they are known', () => {
    const view = licenseView(v.parse(licenseSchema, { type: 'community', max_sessions: 10 }), null, tEn, 'en')
    expect(values(view)).toMatchObject({ customer: 'Customer: —', email: 'Email: —', type: 'Type: community', usage: 'Usage: —', limit: 'Max sessions: 10' })
  })
})
