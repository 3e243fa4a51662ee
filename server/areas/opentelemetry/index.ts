// OpenTelemetry integration (EMQX 5.8 EE): metrics, traces and logs exported over OTLP/gRPC.
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { OtelFeature } from './feature.ts'
import { otelRoutes } from './routes.ts'
import { otelSettings } from './settings.ts'

export const opentelemetryArea = defineServerArea({
  name: 'opentelemetry',
  install: (ctx) => {
    const otel = new OtelFeature(ctx.broker, ctx.configs)
    restoreSettings(otelSettings(otel, ctx.configs))
    return otel
  },
  routes: [otelRoutes],
})
