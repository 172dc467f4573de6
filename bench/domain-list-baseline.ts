/**
 * The bare virtual table of bench/bare-list-page.ts, loaded into a page of the same Chromium and
 * timed as the app's domain list is (bench/domain-list.ts): the baseline its figures are read
 * against (issue 54 point 1).
 */
import { resolve } from 'node:path'
import { build } from 'esbuild'
import type { Browser, Page } from '@playwright/test'

let bundled: Promise<string> | undefined
function barePageScript(): Promise<string> {
  bundled ??= build({
    entryPoints: [resolve('bench/bare-list-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    write: false,
    // Vue's production build, as the app's bundle has it.
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
  }).then((r) => r.outputFiles[0]!.text)
  return bundled
}

/** The text a shown column of the app's list has for one domain of the sandbox's. */
export interface BareDomain {
  domainname: string
  registrar: string
  expirationdate: string
  autorenew: number
  transfer_lock: number
  whoisproxy: number
  ns: string[]
  ds: unknown[]
}

/** Plain text for each column the app shows, by the column's label (as its sort button names it). */
export function bareCells(labels: readonly string[], d: BareDomain): string[] {
  return labels.map((label) => {
    const l = label.toLowerCase()
    if (l.includes('nameserver')) return d.ns.slice(0, 2).join('\n')
    if (l.includes('domain')) return d.domainname
    if (l.includes('registrar')) return d.registrar
    if (l.includes('expir')) return d.expirationdate
    if (l.includes('renew')) return d.autorenew ? 'On' : 'Off'
    if (l.includes('lock')) return d.transfer_lock ? 'Locked' : 'Unlocked'
    if (l.includes('whois')) return d.whoisproxy ? 'On' : 'Off'
    if (l.includes('dnssec')) return d.ds.length > 0 ? 'Signed' : 'Not signed'
    return ''
  })
}

/** A new page with the bare table in it, the rows not drawn yet. */
export async function openBarePage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.setContent(
    `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${await barePageScript()}</script></body></html>`,
  )
  return page
}

/** Draws the rows (their transfer into the page not timed); data -> painted, as the app's marks say. */
export async function showBare(page: Page, labels: readonly string[], rows: readonly string[][]): Promise<number> {
  await page.evaluate(({ cols, data }) => Reflect.set(window, '__bareRows', { cols, data }), {
    cols: [...labels],
    data: rows.map((r) => [...r]),
  })
  return page.evaluate(async () => {
    const given: unknown = Reflect.get(window, '__bareRows')
    if (typeof given !== 'object' || given === null || !('cols' in given) || !('data' in given))
      throw new Error('no rows')
    const { cols, data } = given
    if (!Array.isArray(cols) || !Array.isArray(data) || !window.__bareShow) throw new Error('no bare table')
    await window.__bareShow(
      cols.map(String),
      data.map((r: unknown) => (Array.isArray(r) ? r.map(String) : [])),
    )
    return (
      performance.getEntriesByName('domains:painted')[0]!.startTime -
      performance.getEntriesByName('domains:data')[0]!.startTime
    )
  })
}
