/**
 * The zones a folder or a zones configuration names (src/cli/zone-set.ts), read from real files:
 * which files are zones and of which account, what is left out, and what is refused before
 * anything is opened or sent.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BadInput } from '../../src/cli/context'
import { texts } from '../../src/cli/text'
import { zoneSetOf } from '../../src/cli/zone-set'

const say = texts('en')
const folderWith = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'zone-set-'))
  for (const [name, text] of Object.entries(files)) {
    const parts = name.split('/')
    if (parts.length > 1) mkdirSync(join(dir, ...parts.slice(0, -1)), { recursive: true })
    writeFileSync(join(dir, ...parts), text)
  }
  return dir
}
const refusalOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(err instanceof BadInput)) throw new Error('not refused as bad input')
  return { code: err.code, params: err.params }
}

describe('a folder of zone files', () => {
  it('each file named by its domain, with or without a known ending; a subfolder is an account’s; notes and hidden files left out', async () => {
    const dir = folderWith({
      'example.com.zone': '',
      'Example.NET': '',
      'README.md': '',
      '.git-keep': '',
      'Main/shop.example.bind': '',
      'Live shop/b.example.co.jp.txt': '',
      'Live shop/deeper/x.example': '',
    })
    const set = await zoneSetOf(say, dir, undefined)
    expect(set.zones.map((z) => [z.account, z.domain])).toEqual([
      [undefined, 'example.com'],
      [undefined, 'example.net'],
      ['Live shop', 'b.example.co.jp'],
      ['Main', 'shop.example'],
    ])
    expect(set.leftOut).toEqual([join(dir, 'Live shop', 'deeper'), join(dir, 'README.md')])
  })

  it('refuses a file whose name is not a domain, and a folder with no zone', async () => {
    const badName = folderWith({ 'example.com.zone': '', 'notes.txt~': '' })
    expect(await refusalOf(zoneSetOf(say, badName, undefined))).toMatchObject({ code: 'cli.zones.badFileName' })
    const noZone = folderWith({ 'README.md': '' })
    expect(await refusalOf(zoneSetOf(say, noZone, undefined))).toMatchObject({ code: 'cli.zones.none' })
    const missing = join(tmpdir(), 'no-such-zones-folder')
    const gone = { code: 'cli.fileUnreadable', params: { reason: 'ENOENT' } }
    expect(await refusalOf(zoneSetOf(say, missing, undefined))).toMatchObject(gone)
  })
})

describe('a zones configuration', () => {
  it('names zones, files relative to its folder, accounts and formats', async () => {
    const zones = [
      { domain: 'Example.com', file: 'dns/a.txt', account: 'Main', format: 'bind' },
      { domain: 'example.org', file: '/srv/x' },
    ]
    const dir = folderWith({ 'zones.json': JSON.stringify({ zones }) })
    const set = await zoneSetOf(say, join(dir, 'zones.json'), 'records')
    expect(set.zones).toEqual([
      { domain: 'example.com', file: join(dir, 'dns', 'a.txt'), account: 'Main', format: 'bind' },
      { domain: 'example.org', file: '/srv/x', account: undefined, format: 'records' },
    ])
  })

  it.each([
    ['not JSON', '{zones', 'JSON'],
    ['no file', JSON.stringify({ zones: [{ domain: 'example.com' }] }), 'zones.0.file'],
    ['a domain that is not one', JSON.stringify({ zones: [{ domain: 'not a domain', file: 'x' }] }), 'zones.0.domain'],
    ['an unknown key', JSON.stringify({ zones: [{ domain: 'example.com', file: 'x', acount: 'Main' }] }), 'zones.0'],
    [
      'an unknown format',
      JSON.stringify({ zones: [{ domain: 'a.example', file: 'x', format: 'yaml' }] }),
      'zones.0.format',
    ],
  ])('refuses %s, saying where', async (_what, text, where) => {
    const dir = folderWith({ 'zones.json': text })
    const refused = await refusalOf(zoneSetOf(say, join(dir, 'zones.json'), undefined))
    expect(refused).toMatchObject({ code: 'cli.zones.badConfig', params: { where } })
  })
})
