// How many terminal cells text takes: East Asian wide and fullwidth characters take two (`反向搜索`
// is eight cells), so columns and cursors line up in Chinese too. Pure.

const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]/u

export function charWidth(ch: string): number {
  return WIDE.test(ch) ? 2 : 1
}

export function cellWidth(text: string): number {
  let width = 0
  for (const ch of text) width += charWidth(ch)
  return width
}

/** The longest start of `text` that fits `width` cells. */
export function sliceCells(text: string, width: number): string {
  let used = 0
  let out = ''
  for (const ch of text) {
    const w = charWidth(ch)
    if (used + w > width) break
    used += w
    out += ch
  }
  return out
}
