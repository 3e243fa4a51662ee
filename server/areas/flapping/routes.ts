// GET/PUT /flapping_detect: flapping detection settings (enable, window_time, max_count, ban_time).
import type { FastifyInstance } from 'fastify'
import { FlappingConfigSchema } from './feature.ts'
import type { Features } from '../../broker/features/index.ts'
import { parseInput } from '../../http/errors.ts'
import { mergeObjects } from '../../http/merge.ts'

export async function flappingRoutes(app: FastifyInstance, deps: { features: Features }): Promise<void> {
  const { flapping, configs } = deps.features

  app.get('/flapping_detect', async () => flapping.config)

  app.put('/flapping_detect', async (request) => {
    const config = parseInput(FlappingConfigSchema, mergeObjects(flapping.config, request.body), 'body')
    configs.set('flapping_detect', config)
    flapping.configure(config)
    return flapping.config
  })
}
