// limiter.update and dashboard.update as the Limiter and Basic Config screens run them, against the
// real server: the login lifetime is applied and read back; what the embedded server keeps at
// EMQX's defaults comes back as the server's refusal, worded as it words it, and nothing changes.
import { expect, it } from 'vitest'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'

const suite = consoleSuite()

it('limiter.update checks a rate, keeps the defaults and shows the refusal of a limit', async () => {
  const { api } = suite
  expect(invalidArgs('limiter.update', { max_conn_rate: 'fast' })).toEqual(['max_conn_rate:err.rate'])
  expect(invalidArgs('limiter.update', { bytes_rate: '100MB/s', messages_rate: '1000/s', max_conn_rate: 'infinity' })).toEqual([])
  expect(await api.configs.limiter.get()).toEqual({ max_conn_rate: 'infinity' })
  expect(await runCommand(api, 'limiter.update', { max_conn_rate: 'infinity' })).toEqual({ max_conn_rate: 'infinity' })
  await expect(runCommand(api, 'limiter.update', { messages_rate: '1000/s' })).rejects.toMatchObject({
    status: 400,
    message: expect.stringMatching(/messages_rate.*not implemented by the embedded broker/),
  })
  expect(await api.configs.limiter.get()).toEqual({ max_conn_rate: 'infinity' })
})

it('dashboard.update applies the login lifetime and refuses what it keeps', async () => {
  const { api } = suite
  expect(invalidArgs('dashboard.update', { token_expired_time: 'soon', i18n_lang: 'fr', cors: 'maybe' }).sort()).toEqual(
    ['cors:err.boolean', 'i18n_lang:err.oneOf', 'token_expired_time:err.duration'].sort(),
  )
  expect(invalidArgs('dashboard.update', { sample_interval: '7s' })).toEqual(['sample_interval:err.sampleInterval'])
  expect(invalidArgs('dashboard.update', { sample_interval: '2m' })).toEqual(['sample_interval:err.sampleInterval'])
  expect(invalidArgs('dashboard.update', { sample_interval: '15s' })).toEqual([])
  const before = await api.configs.dashboard.get()
  expect(before.token_expired_time).toBe('60m')
  const after = await runCommand(api, 'dashboard.update', { token_expired_time: '2h' })
  expect(after).toMatchObject({ token_expired_time: '2h', sample_interval: before.sample_interval })
  expect((await api.configs.dashboard.get()).token_expired_time).toBe('2h')

  // The screen's form sends every field: unchanged kept ones pass, a changed one is refused whole.
  const form = { token_expired_time: '30m', sample_interval: before.sample_interval, cors: 'true', swagger_support: 'true', i18n_lang: 'en' }
  await expect(runCommand(api, 'dashboard.update', form)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/cors.*not implemented/) })
  expect((await api.configs.dashboard.get()).token_expired_time).toBe('2h')
  expect(await runCommand(api, 'dashboard.update', { ...form, cors: 'false' })).toMatchObject({ token_expired_time: '30m', cors: false })
})
