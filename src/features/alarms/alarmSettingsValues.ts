// The alarm and system monitor settings as the forms' text values, with EMQX 5.8's defaults where
// a server leaves one out.
import type { AlarmConfig, Sysmon } from '../../api/alarms.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'

export function alarmValues(config: AlarmConfig): FormValues {
  return {
    actions: config.actions.length === 0 ? 'none' : config.actions.join(','),
    size_limit: String(config.size_limit),
    validity_period: config.validity_period,
  }
}

export function sysmonValues(sysmon: Sysmon): FormValues {
  const os = sysmon.os
  return {
    cpu_check_interval: os.cpu_check_interval ?? '60s',
    cpu_high_watermark: os.cpu_high_watermark ?? '80%',
    cpu_low_watermark: os.cpu_low_watermark ?? '60%',
    mem_check_interval: os.mem_check_interval ?? '60s',
    sysmem_high_watermark: os.sysmem_high_watermark ?? '70%',
    procmem_high_watermark: os.procmem_high_watermark ?? '5%',
  }
}
