// Settings as the forms' text values: EMQX writes durations and sizes as text ('1h', '1MB'), some
// versions as numbers (milliseconds, bytes).
import type { DelayedSettings } from '../../api/delayed.ts'
import type { RetainerSettings } from '../../api/retainer.ts'
import type { SysTopics } from '../../api/mqttConfig.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'

const text = (value: unknown, unit = ''): string =>
  value === undefined || value === null ? '' : typeof value === 'number' ? `${value}${unit}` : String(value)

/** Retainer settings: `max_retained_messages` and `storage_type` under `backend`, `batch_read_number` under `flow_control` where this EMQX keeps them. */
export function retainerValues(settings: RetainerSettings): FormValues {
  return {
    enable: text(settings.enable),
    storage_type: text(settings.backend?.storage_type),
    msg_expiry_interval: text(settings.msg_expiry_interval, 'ms'),
    msg_clear_interval: text(settings.msg_clear_interval, 'ms'),
    max_retained_messages: text(settings.max_retained_messages ?? settings.backend?.max_retained_messages),
    max_payload_size: text(settings.max_payload_size, 'B'),
    stop_publish_clear_msg: text(settings.stop_publish_clear_msg),
    delivery_rate: text(settings.delivery_rate),
    batch_read_number: text(settings.flow_control?.batch_read_number),
  }
}

export function sysTopicsValues(settings: SysTopics): FormValues {
  const events = settings.sys_event_messages
  return {
    sys_msg_interval: text(settings.sys_msg_interval, 'ms'),
    sys_heartbeat_interval: text(settings.sys_heartbeat_interval, 'ms'),
    client_connected: text(events?.client_connected),
    client_disconnected: text(events?.client_disconnected),
    client_subscribed: text(events?.client_subscribed),
    client_unsubscribed: text(events?.client_unsubscribed),
  }
}

export function delayedValues(settings: DelayedSettings): FormValues {
  return { enable: text(settings.enable), max_delayed_messages: text(settings.max_delayed_messages) }
}
