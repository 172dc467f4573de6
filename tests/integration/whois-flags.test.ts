/**
 * The stored WHOIS list's privacy flags as the store reads them (store/whois-flags.ts): each
 * row's two members read by SQLite, the contacts never parsed, yet exactly whoisPrivacyOf of the
 * items getList answers for the same stored list, damaged rows and all.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import Database from 'libsql'
import { z } from 'zod'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PagedItem } from '@shared/endpoints/table'
import { whoisPrivacyOf } from '@shared/ipc/whois-privacy'
import { STORED_PART_SIZE } from '@shared/portfolio'
import { openPortfolioStore, type PortfolioStore, type StoreProblem } from '../../src/main/store'
import { openStoreInWorker } from '../../src/main/store/store-worker'
import { ROW_IS_ITEM } from '../../src/main/store/whois-flags'
import { LIST_SPECS } from '../../src/main/store/lists'

let dir: string
let file: string
const opened: PortfolioStore[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'whois-flags-'))
  file = join(dir, 'portfolio.db')
})
afterEach(() => {
  for (const s of opened.splice(0)) s.close()
  rmSync(dir, { recursive: true, force: true })
})
function open(onProblem?: (p: StoreProblem) => void): PortfolioStore {
  const s = openPortfolioStore(file, onProblem ? { onProblem } : {})
  opened.push(s)
  return s
}

const T1 = '2025-01-10T08:00:00.000Z'
const T2 = '2025-01-11T08:00:00.000Z'

type WhoisItem = PagedItem<'domains.whois.list'>
const person = (firstname: string) => ({
  firstname,
  lastname: 'Doe',
  organization: '',
  country: 'JP',
  postalcode: '100-0001',
  state: 'Tokyo',
  city: 'Chiyoda',
  address1: '1-1',
  address2: '',
  phone: '+81.300000000',
  fax: '',
})
const FLAGS = ['1', '0', '']
const whois = (n: number): WhoisItem[] =>
  Array.from({ length: n }, (_, i) => ({
    domainid: 7000 + i,
    domainname: `site${i}.example`,
    whoisproxy: FLAGS[i % FLAGS.length] ?? '',
    contact: { registrant: person(`r${i}`), admin: person('a'), tech: person('t'), billing: person('b') },
  }))
const contact = JSON.stringify({ registrant: person('r'), admin: person('a'), tech: person('t'), billing: person('b') })

/**
 * Rows as the file may hold them, each by its key: some not items of the list (left out), some
 * items written otherwise than this app writes them (the schema's, not SQLite's, to read).
 */
const RAW_ROWS: Record<string, string | Buffer> = {
  // Not items: left out and reported.
  'site1.example': 'not json at all',
  'site2.example': '{"domainid": "not a number"}',
  // Not text: the row itself is not read (reported without its key).
  'site3.example': Buffer.from('{}'),
  'site4.example': `{"domainid":4,"domainname":"site4.example","whoisproxy":"1","contact":{"registrant":null}}`,
  'site5.example': `{"domainid":5,"domainname":"site5.example","whoisproxy":"1","contact":{"tech":{"city":{"a":1}}}}`,
  'site6.example': `{"domainid":6,"domainname":"site6.example","whoisproxy":"1","contact":{"tech":{"fax":true}}}`,
  'site7.example': `{"domainid":7,"domainname":"site7.example","whoisproxy":"0"}`,
  'site8.example': `{"domainid":${'9'.repeat(400)},"domainname":"site8.example","whoisproxy":"1","contact":${contact}}`,
  'site9.example': `{"domainid":9,"domainname":"site9.example","whoisproxy":[],"contact":${contact}}`,
  'site10.example': `{"domainid":10,"domainname":"site10.example","whoisproxy":"1","contact":{"admin":{},"admin":[]}}`,
  // Items, though not as this app writes them.
  'site11.example': `{"domainid":11,"domainname":"site11.example","whoisproxy":1,"contact":${contact}}`,
  'site12.example': `{"domainid":12,"domainname":"site12.example","whoisproxy":"1","whoisproxy":"0","contact":{}}`,
  'site13.example': `{"domainid":13.5,"domainname":"site13.example","contact":{"tech":{"phone":81300000000}}}`,
  'site14.example': `{"domainid":"14","domainname":"site14.example","whoisproxy":null,"contact":{},"extra":[1]}`,
  'site15.example': `{"domainid":15,"domainname":"renamed.example","whoisproxy":"0","contact":{"admin":[]},"contact":{}}`,
}

describe('the stored WHOIS privacy flags', () => {
  it("are whoisPrivacyOf getList's items of the same stored list, damaged rows left out and reported alike", () => {
    const problems: StoreProblem[] = []
    const store = open((p) => problems.push(p))
    store.putList('acct', 'domains.whois.list', {}, whois(30), T1)
    const db = new Database(file)
    for (const [key, json] of Object.entries(RAW_ROWS))
      db.prepare('UPDATE list_items SET json = ? WHERE item_key = ?').run([json, key])
    // Out of the table's order: the flags come in the list's.
    db.prepare("UPDATE list_items SET pos = 100 WHERE item_key = 'site0.example'").run([])
    db.close()

    const list = store.getList('acct', 'domains.whois.list', {})
    const listProblems = problems.splice(0)
    const flags = store.readWhoisPrivacy('acct')
    expect(problems).toEqual(listProblems)
    expect(flags).toEqual({
      items: whoisPrivacyOf(list?.items ?? []),
      readAt: list?.readAt,
      complete: list?.complete,
      skipped: list?.skipped,
    })
    // What that is: ten rows left out, the others' flags as the schema reads them, site0 last.
    expect(flags?.skipped).toBe(10)
    expect(listProblems.map((p) => (p.code === 'store.rowSkipped' ? p.params.key : p.code))).toEqual([
      '',
      ...[1, 2, 4, 5, 6, 7, 8, 9, 10].map((i) => `site${i}.example`),
    ])
    const byName = new Map(flags?.items.map((f) => [f.domainname, f.whoisproxy]))
    expect(flags?.items).toHaveLength(20)
    expect(flags?.items.at(-1)).toEqual({ domainname: 'site0.example', whoisproxy: '1' })
    expect([byName.get('site18.example'), byName.get('site19.example'), byName.get('site20.example')]).toEqual([
      '1',
      '0',
      '',
    ])
    expect(byName.get('site11.example')).toBe('1')
    expect(byName.get('site12.example')).toBe('0')
    expect(byName.get('site13.example')).toBe('')
    expect(byName.get('site14.example')).toBe('')
    expect(byName.get('renamed.example')).toBe('0')
  })

  it('take as SQLite reads it every row the app writes, and none of the rows only the schema may read', () => {
    const store = open()
    store.putList('acct', 'domains.whois.list', {}, whois(30), T1)
    const db = new Database(file)
    try {
      for (const [key, json] of Object.entries(RAW_ROWS))
        db.prepare('UPDATE list_items SET json = ? WHERE item_key = ?').run([json, key])
      const taken = db.prepare(`SELECT item_key AS k FROM list_items AS li WHERE ${ROW_IS_ITEM} ORDER BY pos`).all([])
      expect(taken.map((r) => (typeof r === 'object' && r !== null && 'k' in r ? r.k : r))).toEqual(
        whois(30)
          .map((w) => w.domainname)
          .filter((n) => !(n in RAW_ROWS)),
      )
    } finally {
      db.close()
    }
  })

  it('are the same as whoisPrivacyOf for a list written by the app, in its order', () => {
    const store = open()
    const items = whois(50)
    store.putList('acct', 'domains.whois.list', {}, [...items].reverse(), T1)
    const flags = store.readWhoisPrivacy('acct')
    expect(flags?.items).toEqual(whoisPrivacyOf([...items].reverse()))
    expect(flags).toMatchObject({ readAt: T1, complete: true, skipped: 0 })
  })

  it('answer nothing for an account whose WHOIS list was never stored', () => {
    const store = open()
    store.putList('acct', 'domains.whois.list', {}, whois(3), T1)
    expect(store.readWhoisPrivacy('other')).toBeUndefined()
    expect(store.readWhoisPrivacyPart('other', 0)).toBeUndefined()
  })

  it("come in parts of one list: a list stored again between its parts is the next carriage's", () => {
    const store = open()
    const n = STORED_PART_SIZE * 2 + 5
    store.putList('acct', 'domains.whois.list', {}, whois(n), T1)
    const first = store.readWhoisPrivacyPart('acct', 0)
    expect(first).toMatchObject({ readAt: T1, part: 0, parts: 3 })
    store.putList('acct', 'domains.whois.list', {}, whois(n).reverse(), T2)
    const second = store.readWhoisPrivacyPart('acct', 1)
    const third = store.readWhoisPrivacyPart('acct', 2)
    expect([second?.readAt, third?.readAt]).toEqual([T1, T1])
    expect([first?.items, second?.items, third?.items].flatMap((items) => items ?? [])).toEqual(
      whoisPrivacyOf(whois(n)),
    )
    // The last part given, the next carriage reads the list as it is now.
    expect(store.readWhoisPrivacyPart('acct', 0)).toMatchObject({ readAt: T2, part: 0 })
  })

  it('cross from the store in its worker as the flags only', async () => {
    const store = open()
    store.putList('acct', 'domains.whois.list', {}, whois(5), T1)
    store.close()
    opened.splice(0)
    const inWorker = await openStoreInWorker(file)
    try {
      expect(await inWorker.readWhoisPrivacyPart('acct', 0)).toEqual({
        items: whoisPrivacyOf(whois(5)),
        readAt: T1,
        complete: true,
        skipped: 0,
        part: 0,
        parts: 1,
      })
    } finally {
      await inWorker.close()
    }
  })

  // ROW_IS_ITEM restates the WHOIS schema in SQL, stricter wherever they differ; the cases above hold it to
  // today's schema only. A change of the schema's shape fails here, to be read against ROW_IS_ITEM (and the
  // cases above extended) before the hash is set anew. A refinement JSON Schema cannot say is not seen here.
  it("is read against ROW_IS_ITEM again whenever the WHOIS schema's shape changes", () => {
    const spec = LIST_SPECS['domains.whois.list']
    expect(spec.stored, 'a stored check of its own: ROW_IS_ITEM was written against the item schema').toBeUndefined()
    const shape = JSON.stringify(z.toJSONSchema(spec.item, { io: 'input', unrepresentable: 'any' }))
    expect(createHash('sha256').update(shape).digest('hex')).toBe(
      '53cb9f16805c178b3af63846612bc5e1485d1791315a2f4815c2649957b09130',
    )
  })
})
