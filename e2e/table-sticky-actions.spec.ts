// A table wider than the window keeps its Actions column in view; the columns scrolling under it
// must not show through it (a selected row's date used to overprint "Kick out") and fade out in
// front of it instead of being cut mid-letter.
import { test, expect, type Locator } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

let client: MqttClient | undefined
test.afterEach(() => client?.end(true))

const background = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).backgroundColor)
const fade = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element, '::before').content)

/** `rgb(…)` or `rgba(…, 1)`: nothing behind it shows through. */
const OPAQUE = /^rgb\(|^rgba\(.*,\s*1\)$|^color\(srgb [^/]*\)$/

for (const theme of ['light', 'dark'] as const) {
  test(`a selected row's Actions cell is opaque and the columns under it fade out (${theme})`, async ({ page }) => {
    client = await connectClient(`e2e-sticky-${theme}`, 5)
    await page.setViewportSize({ width: 900, height: 700 })
    await page.emulateMedia({ colorScheme: theme })
    await login(page, '/clients/list')
    const row = page.getByRole('row').filter({ hasText: `e2e-sticky-${theme}` })
    await row.getByRole('checkbox').click()
    await expect(row).toHaveAttribute('aria-selected', 'true')
    // Another row is the active one, so this row shows the selection colour alone.
    await page.locator('.dt-scroll').evaluate((element) => element.blur())

    const actions = row.locator('.dt-cell.is-sticky-end')
    await expect(actions.getByRole('button', { name: 'Kick out' })).toBeVisible()
    await expect(page.locator('.dt-scroll')).toHaveClass(/is-wide/)
    expect(await actions.evaluate((element) => getComputedStyle(element).position)).toBe('sticky')
    const cell = await background(actions)
    expect(cell).toMatch(OPAQUE)
    expect(cell).toBe(await background(row))

    expect(await fade(actions)).not.toBe('none')
    await page.locator('.dt-scroll').evaluate((element) => {
      element.scrollLeft = element.scrollWidth
      element.dispatchEvent(new Event('scroll'))
    })
    // Scrolled to the end, nothing passes under the Actions cell: no fade over the last column.
    await expect.poll(() => fade(actions)).toBe('none')
  })
}
