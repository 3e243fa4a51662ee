// `locales/<lang>.json?part=login`: part of a locale file, cut out by scripts/locale-parts.ts.
declare module '*.json?part=login' {
  const strings: Record<string, unknown>
  export default strings
}
