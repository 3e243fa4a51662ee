// The node's own settings: the Limiter screen's node-level rates (`limiter.update`) and the Basic
// Config screen's dashboard settings (`dashboard.update`). Each argument left empty keeps the
// setting in force; the given ones are sent as one PUT, which the server merges and checks whole.
// The embedded server applies the login tokens' lifetime and keeps the rest at EMQX's defaults: a
// change to those is refused, and the refusal is the command's error, shown as the server words it.
import * as v from 'valibot'
import { LIMITER_BYTES_RATE, LIMITER_RATE } from '../contract/configs.ts'
import { parseDuration } from '../contract/mqtt-configs.ts'
import { defineCommand } from './define.ts'
import { durationArg, givenArgs, keepsCurrent } from './args.ts'

const rateArg = (key: string, pattern: RegExp) =>
  keepsCurrent(v.pipe(v.string(), v.title(`limiter.field.${key}`), v.description(`limiter.hint.${key}`), v.regex(pattern, 'err.rate')))

export const updateLimiter = defineCommand({
  id: 'limiter.update',
  title: 'cmd.limiter.update',
  group: 'cmdGroup.limiter',
  changes: ['configs'],
  args: v.object({
    max_conn_rate: rateArg('max_conn_rate', LIMITER_RATE),
    messages_rate: rateArg('messages_rate', LIMITER_RATE),
    bytes_rate: rateArg('bytes_rate', LIMITER_BYTES_RATE),
  }),
  aliases: ['limiter', 'rate limit', '速率限制'],
  run: (ctx, args) => ctx.api.configs.limiter.update(givenArgs(args)),
})

const dashboardField = (key: string) => `basicConfig.field.${key}`
const dashboardHint = (key: string) => `basicConfig.hint.${key}`
/** 5.8's check (emqx_dashboard_schema): whole seconds from 1 to 60 that divide a minute. */
function isSampleInterval(text: string): boolean {
  const ms = parseDuration(text)
  return ms !== undefined && ms % 1000 === 0 && ms >= 1000 && ms <= 60_000 && 60_000 % ms === 0
}

const switchArg = (key: string) => keepsCurrent(v.pipe(v.boolean('err.boolean'), v.title(dashboardField(key)), v.description(dashboardHint(key))))
const textArg = (key: string) => keepsCurrent(v.pipe(v.string(), v.title(dashboardField(key)), v.description(dashboardHint(key))))

export const updateDashboard = defineCommand({
  id: 'dashboard.update',
  title: 'cmd.dashboard.update',
  group: 'cmdGroup.basicConfig',
  changes: ['configs'],
  args: v.object({
    token_expired_time: keepsCurrent(durationArg(dashboardField('token_expired_time'), { description: dashboardHint('token_expired_time') })),
    sample_interval: keepsCurrent(
      v.pipe(durationArg(dashboardField('sample_interval'), { description: dashboardHint('sample_interval') }), v.check(isSampleInterval, 'err.sampleInterval')),
    ),
    default_username: textArg('default_username'),
    cors: switchArg('cors'),
    swagger_support: switchArg('swagger_support'),
    i18n_lang: keepsCurrent(v.pipe(v.picklist(['en', 'zh'], 'err.oneOf'), v.title(dashboardField('i18n_lang')), v.description(dashboardHint('i18n_lang')))),
    bootstrap_users_file: textArg('bootstrap_users_file'),
  }),
  aliases: ['basic config', 'dashboard settings', 'token lifetime', '基础配置'],
  run: (ctx, args) => ctx.api.configs.dashboard.update(givenArgs(args)),
})

export const configsCommands = [updateLimiter, updateDashboard]
