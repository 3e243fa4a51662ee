// The flapping settings as the form's text values.
import type { Flapping } from '../../api/flapping.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'

/** EMQX gives durations as written ('1m') or as milliseconds. */
const durationText = (value: string | number | undefined, fallback: string) =>
  value === undefined ? fallback : typeof value === 'number' ? `${value}ms` : value

/** The settings as text; EMQX 5.8's defaults where an older server leaves one out. */
export function flappingValues(settings: Flapping): FormValues {
  return {
    enable: String(settings.enable ?? false),
    window_time: durationText(settings.window_time, '1m'),
    max_count: String(settings.max_count ?? 15),
    ban_time: durationText(settings.ban_time, '5m'),
  }
}
