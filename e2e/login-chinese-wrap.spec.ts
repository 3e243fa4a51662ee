// The Chinese login page never leaves one character alone on a line (集中呈 / 现。, MQTT 集 / 群),
// at any window width.
import { test, expect } from '@playwright/test'

/** Text blocks whose wrapped lines include one holding a single character (with any punctuation after it). */
function loneCharacters(): string[] {
  const found: string[] = []
  for (const block of document.querySelectorAll<HTMLElement>('.login :is(h1, h2, p, li, label, button, a)')) {
    if (block.offsetParent === null) continue
    const lines = new Map<number, string>()
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (let i = 0; i < node.length; i++) {
        const ch = node.data[i]
        if (!ch.trim()) continue
        const range = document.createRange()
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        const rect = range.getClientRects()[0]
        if (rect) lines.set(Math.round(rect.top), (lines.get(Math.round(rect.top)) ?? '') + ch)
      }
    }
    if (lines.size < 2) continue
    for (const line of lines.values()) if ([...line.replace(/[。，、；：？！）.,;:?!)]/g, '')].length <= 1) found.push(`${block.textContent?.trim()} → ${line}`)
  }
  return found
}

test('no character of the Chinese login page wraps onto a line of its own', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'zh'))
  for (const width of [1400, 1200, 1000, 960, 900, 800, 700, 480, 390]) {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/login')
    await expect(page.getByRole('heading', { name: '登录' })).toBeVisible()
    await page.getByRole('button', { name: '忘记密码？' }).click()
    expect(await page.evaluate(loneCharacters), `at ${width} px`).toEqual([])
  }
})
