// The log handlers as the forms' text values: EMQX 5.8's defaults where an older server leaves one out.
import type { LogHandlerSettings, LogSettings } from '../../api/log.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'

/** The file handler the screen edits: EMQX's own, `default`. */
export const DEFAULT_FILE_HANDLER = 'default'

function handlerValues(handler: LogHandlerSettings | undefined, enable: boolean): FormValues {
  return {
    enable: String(handler?.enable ?? enable),
    level: handler?.level ?? 'warning',
    formatter: handler?.formatter ?? 'text',
    timestamp_format: handler?.timestamp_format ?? 'auto',
    time_offset: handler?.time_offset ?? 'system',
    payload_encode: handler?.payload_encode ?? 'text',
  }
}

export function consoleValues(settings: LogSettings): FormValues {
  return handlerValues(settings.console, false)
}

export function fileValues(settings: LogSettings): FormValues {
  const handler = settings.file?.[DEFAULT_FILE_HANDLER]
  return {
    name: DEFAULT_FILE_HANDLER,
    ...handlerValues(handler, true),
    path: handler?.path ?? '${EMQX_LOG_DIR}/emqx.log',
    rotation_size: String(handler?.rotation_size ?? '50MB'),
    rotation_count: String(handler?.rotation_count ?? 10),
  }
}
