// One REST area of the embedded server, declared once: its name, its named migrations, the broker
// feature it installs (with a lifecycle) and its routes. server/areas/index.ts lists every area;
// start.ts installs, starts and stops them from that list and http/app.ts registers their routes.
import type { FastifyInstance, onRequestHookHandler } from 'fastify'
import type { Broker } from '../broker/broker.ts'
import type { Config } from '../config.ts'
import type { Database, Migration } from '../store/db.ts'
import type { FeatureConfigRepository } from '../store/feature-config.ts'
import type { NodePaths } from './nodes/routes.ts'

/** What an area may install: hooks on the broker, timers, repositories. */
export interface Feature {
  /** Work that needs every area installed; runs once the broker listens, before the API does. */
  start?(): void | Promise<void>
  /** Undoes what install and start did; areas stop in the reverse order of their installation. */
  stop?(): void
}

/** What every area is installed with. */
export interface AreaContext {
  broker: Broker
  db: Database
  /** Area settings kept across restarts (JSON under `feature.<name>` in the settings table). */
  configs: FeatureConfigRepository
  config: Config
  /** Where the server runs from and logs to, as /nodes shows them. */
  paths: NodePaths
  /** Another area's feature, installed first if it is not yet: how areas reach each other. */
  use<F>(area: ServerArea<F>): F
}

/** What an area's routes get: the context and the area's own feature. */
export type AreaDeps<F> = AreaContext & { feature: F }

/** A Fastify plugin of one area; it may ask for less than AreaDeps (`{ broker: Broker }`). */
export type AreaRoutes<F> = (app: FastifyInstance, deps: AreaDeps<F>) => Promise<void>

export interface ServerArea<F = unknown> {
  readonly name: string
  readonly migrations: readonly Migration[]
  install(ctx: AreaContext): F
  /** Each registers one of the area's route plugins, with the area's feature in its deps. */
  readonly routes: ReadonlyArray<(app: FastifyInstance, ctx: AreaContext) => Promise<void>>
  /** A check every API request passes before its route (the login's guard). */
  readonly requestGuard?: (ctx: AreaContext) => onRequestHookHandler
}

export interface AreaDefinition<F> {
  /** The folder's name under server/areas. */
  name: string
  migrations?: readonly Migration[]
  install?: (ctx: AreaContext) => F
  routes?: ReadonlyArray<AreaRoutes<F>>
  requestGuard?: (deps: AreaDeps<F>) => onRequestHookHandler
}

export function defineServerArea<F = undefined>(definition: AreaDefinition<F>): ServerArea<F> {
  const withFeature = (ctx: AreaContext): AreaDeps<F> => ({ ...ctx, feature: ctx.use(area) })
  const guard = definition.requestGuard
  const area: ServerArea<F> = {
    name: definition.name,
    migrations: definition.migrations ?? [],
    install: definition.install ?? (() => undefined as F),
    routes: (definition.routes ?? []).map((routes) => (app: FastifyInstance, ctx: AreaContext) => routes(app, withFeature(ctx))),
    ...(guard ? { requestGuard: (ctx: AreaContext) => guard(withFeature(ctx)) } : {}),
  }
  return area
}

/** Every area's migrations, in the order of the list. */
export function migrationsOf(areas: readonly ServerArea[]): Migration[] {
  return areas.flatMap((area) => area.migrations)
}

export interface InstalledAreas {
  readonly context: AreaContext
  /** Starts the features in the order they were installed. */
  start(): Promise<void>
  /** Stops them in the reverse order; safe to call more than once. */
  stop(): void
}

/** Installs every listed area (an area another one uses goes first); on a failure, what was installed stops. */
export function installAreas(areas: readonly ServerArea[], base: Omit<AreaContext, 'use'>): InstalledAreas {
  const features = new Map<ServerArea, unknown>()
  const installing = new Set<ServerArea>()
  const order: Feature[] = []
  const context: AreaContext = { ...base, use }

  function use<F>(area: ServerArea<F>): F {
    if (features.has(area)) return features.get(area) as F
    if (!areas.includes(area)) throw new Error(`area ${area.name} is used but not listed in server/areas/index.ts`)
    if (installing.has(area)) throw new Error(`areas use each other in a circle through ${area.name}`)
    installing.add(area)
    const feature = area.install(context)
    installing.delete(area)
    features.set(area, feature)
    if (feature && typeof feature === 'object') order.push(feature as Feature)
    return feature
  }

  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    for (const feature of [...order].reverse()) feature.stop?.()
  }
  try {
    for (const area of areas) use(area)
  } catch (error) {
    stop()
    throw error
  }
  return {
    context,
    async start() {
      for (const feature of order) await feature.start?.()
    },
    stop,
  }
}
