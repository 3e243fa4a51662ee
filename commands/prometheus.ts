// Prometheus integration: basic auth on the scrape endpoints, and the push to a Pushgateway.
import * as v from 'valibot'
import { isHttpUrl } from '../contract/prometheus.ts'
import { defineCommand } from './define.ts'
import { durationArg, givenArgs, keepsCurrent, keyValuesArg } from './args.ts'

export const updatePrometheus = defineCommand({
  id: 'prometheus.update',
  title: 'cmd.prometheus.update',
  group: 'cmdGroup.monitoringIntegration',
  changes: ['prometheus'],
  args: v.object({
    enable_basic_auth: keepsCurrent(v.pipe(v.boolean('err.boolean'), v.title('form.field.promBasicAuth'), v.description('form.hint.promBasicAuth'))),
  }),
  aliases: ['prometheus', 'metrics scrape', '监控集成'],
  run: (ctx, args) => ctx.api.prometheus.update(givenArgs(args)),
})

export const updatePushGateway = defineCommand({
  id: 'prometheus.pushGateway',
  title: 'cmd.prometheus.pushGateway',
  group: 'cmdGroup.monitoringIntegration',
  changes: ['prometheus'],
  // Each setting but the address, left out, keeps its current value; the screen fills them all in.
  args: v.object({
    enable: keepsCurrent(v.pipe(v.boolean('err.boolean'), v.title('form.field.pushGatewayEnable'))),
    // SPEC 5: the Pushgateway address is required, so it is always given (the screen fills it in).
    url: v.pipe(
      v.string('err.pushGatewayRequired'),
      v.title('form.field.pushGatewayUrl'),
      v.description('form.hint.pushGatewayUrl'),
      v.nonEmpty('err.pushGatewayRequired'),
      v.check(isHttpUrl, 'err.httpUrl'),
    ),
    interval: keepsCurrent(durationArg('form.field.pushGatewayInterval', { description: 'form.hint.pushGatewayInterval' })),
    job_name: keepsCurrent(v.pipe(v.string(), v.title('form.field.pushGatewayJobName'), v.description('form.hint.pushGatewayJobName'), v.nonEmpty('err.required'))),
    headers: v.optional(keyValuesArg('form.field.pushGatewayHeaders', { description: 'form.hint.pushGatewayHeaders' })),
    // The object's message is the one of a missing key, and the address is the only required one.
  }, 'err.pushGatewayRequired'),
  aliases: ['pushgateway', 'push gateway', 'Pushgateway'],
  run: (ctx, args) => ctx.api.prometheus.update({ push_gateway: givenArgs(args) }),
})

export const prometheusCommands = [updatePrometheus, updatePushGateway]
