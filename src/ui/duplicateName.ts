// SPEC 4's copy name, for every duplicate (rules, connectors, actions, sources): `_duplication`
// added, or the counter after it raised (`x_duplication_1`, `_2`...).
const COPY_SUFFIX = '_duplication'

export function duplicateName(name: string): string {
  if (name.endsWith(COPY_SUFFIX)) return `${name}_1`
  const counted = new RegExp(`${COPY_SUFFIX}_(\\d+)$`).exec(name)
  if (counted) return name.slice(0, counted.index) + `${COPY_SUFFIX}_${Number(counted[1]) + 1}`
  return `${name}${COPY_SUFFIX}`
}
