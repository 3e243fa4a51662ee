// Alarms: conditions the broker measures (memory, CPU, connections), active and past (/alarms),
// with their settings (/configs/alarm, /configs/sysmon).
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { AlarmMonitor } from './feature.ts'
import { alarmMigrations } from './migrations.ts'
import { alarmRoutes } from './routes.ts'
import { alarmSettings, sysmonOsSettings } from './settings.ts'
import { AlarmRepository } from './store.ts'
import { sysmonRoutes } from './sysmon-routes.ts'

export const alarmsArea = defineServerArea({
  name: 'alarms',
  migrations: alarmMigrations,
  install: (ctx) => {
    const alarms = new AlarmMonitor(ctx.broker, new AlarmRepository(ctx.db), ctx.config.monitoring?.alarms)
    restoreSettings(sysmonOsSettings(alarms, ctx.configs))
    restoreSettings(alarmSettings(alarms, ctx.configs))
    return alarms
  },
  routes: [alarmRoutes, sysmonRoutes],
})
