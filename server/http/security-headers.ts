// Headers that make the browser refuse what the console never does (framing, sniffing, loading
// scripts from elsewhere, sending the URL on), and the source maps kept back unless asked for.
import type { FastifyInstance } from 'fastify'
import { notFoundBody } from './errors.ts'

/**
 * What the built console needs and no more: its own scripts only, no eval; `'unsafe-inline'` styles
 * because xterm, uPlot and React write <style> elements and style attributes; WebSockets to any
 * host (`ws:`/`wss:`) because the MQTT test client connects to brokers elsewhere; mqtt.js keeps
 * its timers in a blob: worker.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

export interface SecurityOptions {
  /** Serve the console's `*.map` files (the `SOURCE_MAPS` setting); refused with 404 otherwise. */
  serveSourceMaps?: boolean
}

/** Every answer (console pages, files, the API, errors, the proxy's) carries the headers. */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityOptions = {}): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS)
    if (options.serveSourceMaps) return
    const path = request.url.split('?')[0]!
    if (path.endsWith('.map') && !path.startsWith('/api/')) return reply.status(404).send(notFoundBody(request))
  })
}
