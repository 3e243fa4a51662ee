// Where a CPU profile of the page spent its time: self time by script and by function.
export type CpuProfile = { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[]; timeDeltas?: number[] }

/** Self time in a CPU profile by script (the app's chunks, (program) for the browser's own work) and by function. */
export function profileSummary(profile: CpuProfile, count = 8) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const byScript = new Map<string, number>()
  const byFunction = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms)
  for (let i = 0; i < samples.length; i++) {
    const frame = byId.get(samples[i])?.callFrame
    if (!frame) continue
    const ms = (deltas[i] ?? 0) / 1000
    const file = frame.url.split('/').pop() || (frame.url ? frame.url : frame.functionName.startsWith('(') ? frame.functionName : '(no script)')
    add(byScript, file.replace(/-[\w-]{8}\.js$/, '.js'), ms)
    add(byFunction, `${frame.functionName || '(anonymous)'} (${file}:${frame.lineNumber + 1})`, ms)
  }
  const top = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`)
  return { scripts: top(byScript), functions: top(byFunction) }
}
