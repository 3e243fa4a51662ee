// The gRPC connection every OTLP exporter shares (emqx_otel_config:otel_exporter/1): the endpoint,
// TLS from `ssl_options` (a file path or the PEM text), and the headers as gRPC metadata.
import { readFileSync } from 'node:fs'
import { credentials, Metadata, type ChannelCredentials } from '@grpc/grpc-js'
import type { OTLPGRPCExporterConfigNode } from '@opentelemetry/otlp-grpc-exporter-base'
import { otelDurationMs, type OtelConfig } from '../../../contract/opentelemetry.ts'

function pem(value: string | undefined): Buffer | undefined {
  if (!value) return undefined
  return value.trimStart().startsWith('-----BEGIN') ? Buffer.from(value) : readFileSync(value)
}

function channelCredentials(ssl: OtelConfig['exporter']['ssl_options']): ChannelCredentials {
  if (!ssl.enable) return credentials.createInsecure()
  const verify = ssl.verify === 'verify_peer'
  return credentials.createSsl(pem(ssl.cacertfile) ?? null, pem(ssl.keyfile) ?? null, pem(ssl.certfile) ?? null, {
    rejectUnauthorized: verify,
    ...(verify ? {} : { checkServerIdentity: () => undefined }),
  })
}

/** The options of an OTLP gRPC exporter for these settings; `timeoutMillis` bounds one export. */
export function exporterOptions(exporter: OtelConfig['exporter'], timeoutMillis?: number): OTLPGRPCExporterConfigNode {
  const metadata = new Metadata()
  for (const [key, value] of Object.entries(exporter.headers)) metadata.set(key, value)
  const url = new URL(exporter.endpoint)
  // TLS follows ssl_options, whatever the scheme says, as EMQX does.
  url.protocol = exporter.ssl_options.enable ? 'https:' : 'http:'
  return { url: url.toString(), credentials: channelCredentials(exporter.ssl_options), metadata, ...(timeoutMillis ? { timeoutMillis } : {}) }
}

/** A batch processor's limits from a `logs` or `traces` section (EMQX's bsp_* settings). */
export function batchOptions(section: Pick<OtelConfig['logs'], 'max_queue_size' | 'scheduled_delay' | 'exporting_timeout'>) {
  return {
    maxQueueSize: section.max_queue_size,
    maxExportBatchSize: Math.min(512, section.max_queue_size),
    scheduledDelayMillis: otelDurationMs(section.scheduled_delay),
    exportTimeoutMillis: otelDurationMs(section.exporting_timeout),
  }
}
