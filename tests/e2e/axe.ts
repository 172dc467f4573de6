/**
 * axe-core over one screen, in the test that has it open with its data: zero violations of any
 * impact (minor and moderate included). Which test scans which screen: axe-screens.ts.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { AXE_SCREENS, onRoute, type AxeScreen } from './axe-screens'

export async function expectNoAxeViolations(
  page: Page,
  screen: AxeScreen,
  opts: { include?: string } = {},
): Promise<void> {
  await test.step(`axe: ${screen}`, async () => {
    const { route } = AXE_SCREENS[screen]
    // The screen the list names, with its reads done (no loading state left).
    const path = await page.evaluate(() => location.hash.replace(/^#/, '').split('?')[0] || '/')
    expect(onRoute(route, path), `"${screen}" is scanned on ${route}, not on ${path}`).toBe(true)
    await expect(page.locator('.read-status')).toHaveCount(0)
    expect(await violations(page, opts.include), `axe violations on ${screen}`).toEqual([])
  })
}

/**
 * A scan of one part of a screen another test scans whole (AXE_SCREENS names that one): what a
 * test changed on it, in its own state (a dialog, a language, a wait under way).
 */
export async function expectNoAxeViolationsIn(page: Page, selector: string, what: string): Promise<void> {
  await test.step(`axe: ${what}`, async () => {
    expect(await violations(page, selector), `axe violations in ${what}`).toEqual([])
  })
}

/** The same scan of what is on the page now, where it is no screen of the router (the boot frame before the app mounts). */
export async function expectNoAxeViolationsBeforeMount(page: Page, what: string): Promise<void> {
  await test.step(`axe: ${what}`, async () => {
    expect(await violations(page), `axe violations on ${what}`).toEqual([])
  })
}

async function violations(page: Page, include?: string): Promise<string[]> {
  // Violations only: the passes and the inapplicable rules (most of axe's output, gathered
  // over every node of the page) are not read here, and not collecting them halves a scan.
  let axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] })
  if (include) axe = axe.include(include)
  const result = await axe.analyze()
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'no impact'}): ${v.help} at ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  )
}
