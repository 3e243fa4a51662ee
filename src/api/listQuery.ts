// A list endpoint's query as a link carries it: EMQX's own names, each value as text or, after the
// router has read the URL, already a number or a boolean. The pieces here accept both, so one
// schema per list, kept with its API module (`clientsSearch` in clients.ts), reads a screen's URL
// (src/routes/searchValues.ts) and says what the endpoint understands.
import * as v from 'valibot'

/** Trimmed text; blank is absent. A number (the router reads `?node=1` as one) becomes text. */
export const queryText = () => v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.trim(), v.nonEmpty())

/** A whole number of at least `min` (0 for QoS 0); blank is absent, not 0. */
export const queryInt = (min = 1) =>
  v.pipe(v.union([v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty(), v.transform(Number))]), v.integer(), v.minValue(min))

/** One of a few numbers (MQTT versions, QoS levels). */
export const queryNumberOf = <const T extends readonly number[]>(options: T) => v.pipe(queryInt(Math.min(...options)), v.picklist(options))

/** true or false, also as text. */
export const queryBoolean = () => v.union([v.boolean(), v.pipe(v.picklist(['true', 'false']), v.transform((text) => text === 'true'))])

/** The page (1-based) and page size every paged list takes. */
export const queryPaging = {
  page: v.optional(queryInt()),
  limit: v.optional(queryInt()),
}
