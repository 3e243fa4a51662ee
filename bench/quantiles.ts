// p50 / p95 / max of a list of millisecond samples, as the bench tables print them.
export function quantiles(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  const ms = (n: number) => +n.toFixed(3)
  return { 'p50 ms': ms(at(0.5)), 'p95 ms': ms(at(0.95)), 'max ms': ms(sorted[sorted.length - 1]) }
}
