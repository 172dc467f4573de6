/**
 * The stored WHOIS list's privacy flags as the store reads them (store/whois-flags.ts): each
 * row's two members read by SQLite, the contacts never parsed, yet exactly whoisPrivacyOf of the
 * items getList answers for the same stored list, damaged rows and all. The members are kept in
 * whois_flags by triggers as rows are written, so they follow any SQL write to the rows, a file
 * of an older version gets them for the rows it holds, and flags kept by another check (another
 * ROW_IS_ITEM, another SQLite) are made again before any is read.
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
import { ROW_IS_ITEM, keepWhoisFlags } from '../../src/main/store/whois-flags'
import { LIST_SPECS } from '../../src/main/store/lists'
import { SCHEMA_VERSION, migrate } from '../../src/main/store/migrations'
import { openConnection } from '../../src/main/store/database'

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

const countRow = z.object({ n: z.number() })
const count = (db: Database.Database, sql: string, ...params: (string | number)[]): number =>
  countRow.parse(db.prepare(sql).get(params)).n
const WHOIS_ROWS = "list_id IN (SELECT id FROM lists WHERE list = 'domains.whois.list')"
/**
 * The WHOIS rows whose kept flags are not what ROW_IS_ITEM and the two members say of the row's text and key now, or
 * whose kept list or position are not the row's, a position kept only when a safe integer (a row without kept flags
 * among them): none, when the triggers kept
 * up with every write.
 */
const staleFlags = (db: Database.Database): number =>
  count(
    db,
    `SELECT count(*) AS n FROM list_items AS li LEFT JOIN whois_flags AS wf ON wf.item_id = li.id
     WHERE li.${WHOIS_ROWS} AND (wf.item_id IS NULL OR wf.list_id IS NOT li.list_id
       OR wf.pos IS NOT (CASE WHEN typeof(li.pos) = 'integer' AND abs(li.pos) <= 9007199254740991 THEN li.pos END)
       OR wf.flags IS NOT (CASE WHEN typeof(li.item_key) = 'text' AND ${ROW_IS_ITEM}
         THEN json_extract(li.json, '$.domainname', '$.whoisproxy') END))`,
  )
const idOf = (db: Database.Database, key: string, list = 'domains.whois.list'): number =>
  z.object({ id: z.number() }).parse(
    db
      .prepare(
        `SELECT li.id FROM list_items li JOIN lists l ON l.id = li.list_id
           WHERE l.list = ? AND li.item_key = ? AND l.account_id = 'acct'`,
      )
      .get([list, key]),
  ).id
const keptFlags = (db: Database.Database, itemId: number): unknown =>
  z
    .object({ flags: z.string().nullable() })
    .parse(db.prepare('SELECT flags FROM whois_flags WHERE item_id = ?').get([itemId])).flags
/** The flags answered, with the problems reported reading them, beside what getList's items give of the same file. */
function flagsAndList(store: PortfolioStore, problems: StoreProblem[]) {
  problems.splice(0)
  const list = store.getList('acct', 'domains.whois.list', {})
  const listProblems = problems.splice(0)
  const flags = store.readWhoisPrivacy('acct')
  return {
    flags: { answer: flags, problems: problems.splice(0) },
    list: {
      answer: {
        items: whoisPrivacyOf(list?.items ?? []),
        readAt: list?.readAt,
        complete: list?.complete,
        skipped: list?.skipped,
      },
      problems: listProblems,
    },
  }
}
/** A WHOIS item's text as this app writes it. */
const itemText = (domainid: number, domainname: string, whoisproxy: string): string =>
  JSON.stringify({
    domainid,
    domainname,
    whoisproxy,
    contact: { registrant: person('r'), admin: person('a'), tech: person('t'), billing: person('b') },
  })
/** A row of RAW_ROWS that is text. */
function rawText(key: string): string {
  const text = RAW_ROWS[key]
  if (typeof text !== 'string') throw new Error(`no text row ${key}`)
  return text
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

  it('are read alike over more than one stretch of rows, and from rows that lie apart', () => {
    const store = open()
    // 10,005 rows written at once: read a stretch of 10,000 ids at a time, the last stretch 5 rows.
    store.putList('acct', 'domains.whois.list', {}, whois(10_005), T1)
    expect(store.readWhoisPrivacy('acct')).toEqual({
      items: whoisPrivacyOf(whois(10_005)),
      readAt: T1,
      complete: true,
      skipped: 0,
    })
    // Five rows kept from a first reading, the rest written after another account's list: apart in the table.
    store.putList('acct', 'domains.whois.list', {}, whois(5), T1)
    store.putList('other', 'domains.whois.list', {}, whois(50), T1)
    store.putList('acct', 'domains.whois.list', {}, whois(30).reverse(), T2)
    expect(store.readWhoisPrivacy('acct')).toEqual({
      items: whoisPrivacyOf(whois(30).reverse()),
      readAt: T2,
      complete: true,
      skipped: 0,
    })
  })

  it('leave out and report the rows whose key, position or kept flags are not as this app writes them', () => {
    const problems: StoreProblem[] = []
    const store = open((p) => problems.push(p))
    store.putList('acct', 'domains.whois.list', {}, whois(30), T1)
    const db = new Database(file)
    db.prepare("UPDATE list_items SET item_key = CAST(item_key AS BLOB) WHERE item_key = 'site3.example'").run([])
    db.prepare("UPDATE list_items SET pos = 2.5 WHERE item_key = 'site4.example'").run([])
    db.prepare("UPDATE list_items SET pos = 1152921504606846976 WHERE item_key = 'site5.example'").run([])
    db.prepare('UPDATE whois_flags SET flags = CAST(flags AS BLOB) WHERE item_id = ?').run([idOf(db, 'site6.example')])
    db.close()
    problems.splice(0)
    const flags = store.readWhoisPrivacy('acct')
    const left = new Set(['site3.example', 'site4.example', 'site5.example', 'site6.example'])
    expect(flags).toEqual({
      items: whoisPrivacyOf(whois(30).filter((w) => !left.has(w.domainname))),
      readAt: T1,
      complete: true,
      skipped: 4,
    })
    expect(problems.map((p) => (p.code === 'store.rowSkipped' ? p.params.key : p.code))).toEqual(['', '', '', ''])
  })

  it('answer no flags for a WHOIS list stored empty, with its time', () => {
    const store = open()
    store.putList('acct', 'domains.whois.list', {}, [], T1)
    expect(store.readWhoisPrivacy('acct')).toEqual({ items: [], readAt: T1, complete: true, skipped: 0 })
    expect(store.readWhoisPrivacyPart('acct', 0)).toMatchObject({ items: [], readAt: T1, part: 0, parts: 1 })
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

  it('follow every SQL write to the rows after the list was written: changed, damaged, moved, added, replaced, deleted', () => {
    const problems: StoreProblem[] = []
    const store = open((p) => problems.push(p))
    store.putList('acct', 'domains.whois.list', {}, whois(12), T1)
    store.putList('acct', 'domains.list', {}, [], T1)
    const db = new Database(file)
    try {
      const whoisList = idOf(db, 'site0.example')
      const whoisListId = z
        .object({ list_id: z.number() })
        .parse(db.prepare('SELECT list_id FROM list_items WHERE id = ?').get([whoisList])).list_id
      const domainsListId = z
        .object({ id: z.number() })
        .parse(db.prepare("SELECT id FROM lists WHERE list = 'domains.list'").get([])).id
      // Another item's flag: site1 was '0', now '1'.
      db.prepare('UPDATE list_items SET json = ? WHERE item_key = ?').run([
        itemText(7001, 'site1.example', '1'),
        'site1.example',
      ])
      // Damaged: no longer an item.
      db.prepare('UPDATE list_items SET json = ? WHERE item_key = ?').run([rawText('site5.example'), 'site2.example'])
      // Replaced whole under its id: site3 was '1', now '' and named anew.
      db.prepare('INSERT OR REPLACE INTO list_items (id, list_id, item_key, pos, json) VALUES (?, ?, ?, ?, ?)').run([
        idOf(db, 'site3.example'),
        whoisListId,
        'site3.example',
        3,
        itemText(7003, 'site3-new.example', ''),
      ])
      // Replaced by its key: the row's old id goes without a delete trigger, and comes back as another row
      // inserted by a statement that ignores conflicts, whose own would then be the trigger's too.
      const site4 = idOf(db, 'site4.example')
      db.prepare('INSERT OR REPLACE INTO list_items (list_id, item_key, pos, json) VALUES (?, ?, ?, ?)').run([
        whoisListId,
        'site4.example',
        4,
        itemText(7004, 'site4.example', '0'),
      ])
      db.prepare('INSERT OR IGNORE INTO list_items (id, list_id, item_key, pos, json) VALUES (?, ?, ?, ?, ?)').run([
        site4,
        whoisListId,
        'site40.example',
        40,
        itemText(7040, 'site40.example', '1'),
      ])
      // Given another id.
      db.prepare('UPDATE list_items SET id = 90000 WHERE item_key = ?').run(['site5.example'])
      // Added, and deleted.
      db.prepare('INSERT INTO list_items (list_id, item_key, pos, json) VALUES (?, ?, ?, ?)').run([
        whoisListId,
        'site41.example',
        41,
        itemText(7041, 'site41.example', '0'),
      ])
      db.prepare('DELETE FROM list_items WHERE item_key = ?').run(['site6.example'])
      // Moved in from another list, and out to it.
      db.prepare('INSERT INTO list_items (list_id, item_key, pos, json) VALUES (?, ?, ?, ?)').run([
        domainsListId,
        'site42.example',
        42,
        itemText(7042, 'site42.example', '1'),
      ])
      db.prepare('UPDATE list_items SET list_id = ? WHERE item_key = ?').run([whoisListId, 'site42.example'])
      db.prepare('UPDATE list_items SET list_id = ? WHERE item_key = ?').run([domainsListId, 'site7.example'])

      // Every WHOIS row's flags kept, as ROW_IS_ITEM says of its text now, and none of a row gone or moved out.
      expect(staleFlags(db)).toBe(0)
      expect(keptFlags(db, idOf(db, 'site42.example'))).toBe('["site42.example","1"]')
      expect(keptFlags(db, idOf(db, 'site2.example'))).toBeNull()
      expect(count(db, 'SELECT count(*) AS n FROM whois_flags')).toBe(
        count(db, `SELECT count(*) AS n FROM list_items WHERE ${WHOIS_ROWS}`),
      )
    } finally {
      db.close()
    }

    const { flags, list } = flagsAndList(store, problems)
    expect(flags).toEqual(list)
    const byName = new Map(flags.answer?.items.map((f) => [f.domainname, f.whoisproxy]))
    expect(flags.answer?.skipped).toBe(1)
    expect(flags.problems).toEqual([
      {
        code: 'store.rowSkipped',
        params: { table: 'list_items', accountId: 'acct', list: 'domains.whois.list', key: 'site2.example' },
      },
    ])
    expect(Object.fromEntries(byName)).toMatchObject({
      'site1.example': '1',
      'site3-new.example': '',
      'site4.example': '0',
      'site40.example': '1',
      'site5.example': '',
      'site41.example': '0',
      'site42.example': '1',
    })
    expect([byName.has('site3.example'), byName.has('site6.example'), byName.has('site7.example')]).toEqual([
      false,
      false,
      false,
    ])
  })

  it("follow a change of the list's order made by SQL alone, and of a key", () => {
    const problems: StoreProblem[] = []
    const store = open((p) => problems.push(p))
    store.putList('acct', 'domains.whois.list', {}, whois(8), T1)
    const db = new Database(file)
    try {
      db.prepare(`UPDATE list_items SET pos = 100 - pos WHERE ${WHOIS_ROWS}`).run([])
      db.prepare("UPDATE list_items SET item_key = CAST(item_key AS BLOB) WHERE item_key = 'site3.example'").run([])
      expect(staleFlags(db)).toBe(0)
    } finally {
      db.close()
    }
    // A key that is not text is left out and reported, as the rows read one by one always were.
    const { flags } = flagsAndList(store, problems)
    expect(flags.answer?.items).toEqual(
      whoisPrivacyOf(whois(8).reverse()).filter((f) => f.domainname !== 'site3.example'),
    )
    expect(flags.answer?.skipped).toBe(1)
    expect(flags.problems.map((p) => (p.code === 'store.rowSkipped' ? p.params.key : p.code))).toEqual([''])
  })

  it.each([
    ['written at once', (store: PortfolioStore) => store.putList('acct', 'domains.whois.list', {}, whois(8), T1)],
    [
      'whose rows lie apart',
      (store: PortfolioStore) => {
        store.putList('acct', 'domains.whois.list', {}, whois(3), T1)
        store.putList('other', 'domains.whois.list', {}, whois(40), T1)
        store.putList('acct', 'domains.whois.list', {}, whois(8), T1)
      },
    ],
  ])('are read from the rows themselves when whois_flags holds a row more or one fewer than a list %s', (_, write) => {
    const problems: StoreProblem[] = []
    const store = open((p) => problems.push(p))
    write(store)
    /** `edit` made to the file by another connection, as another program would. */
    const inFile = <T>(edit: (db: Database.Database) => T): T => {
      const db = new Database(file)
      try {
        return edit(db)
      } finally {
        db.close()
      }
    }
    /** The flags answered, held to be whoisPrivacyOf getList's items, problems alike. */
    const readAlike = () => {
      const { flags, list } = flagsAndList(store, problems)
      expect(flags).toEqual(list)
      return flags.answer?.items
    }
    const listId = inFile(
      (db) =>
        z
          .object({ list_id: z.number() })
          .parse(db.prepare('SELECT list_id FROM list_items WHERE id = ?').get([idOf(db, 'site0.example')])).list_id,
    )
    const kept = (db: Database.Database) => count(db, 'SELECT count(*) AS n FROM whois_flags WHERE list_id = ?', listId)
    const names = whois(8).map((w) => w.domainname)

    inFile((db) => {
      // Replaced by its key: the old row goes without its delete trigger, its kept flags stay behind.
      db.prepare('INSERT OR REPLACE INTO list_items (list_id, item_key, pos, json) VALUES (?, ?, ?, ?)').run([
        listId,
        'site2.example',
        2,
        itemText(7002, 'site2.example', '1'),
      ])
      expect(kept(db)).toBe(9)
    })
    const more = readAlike()
    expect(more?.map((f) => f.domainname)).toEqual(names)
    expect(more?.[2]).toEqual({ domainname: 'site2.example', whoisproxy: '1' })

    inFile((db) => {
      // One row's kept flags gone beside the row left behind: as many rows as the list's, one of them not its.
      db.prepare('DELETE FROM whois_flags WHERE item_id = ?').run([idOf(db, 'site5.example')])
      expect(kept(db)).toBe(8)
    })
    expect(readAlike()?.map((f) => f.domainname)).toEqual(names)

    inFile((db) => {
      // The row left behind gone, as many rows as the list's again, and one's kept flags not JSON.
      db.exec(`DELETE FROM whois_flags WHERE item_id NOT IN (SELECT id FROM list_items)`)
      db.prepare('UPDATE whois_flags SET flags = \'["site6.example",\' WHERE item_id = ?').run([
        idOf(db, 'site6.example'),
      ])
      expect(kept(db)).toBe(7)
    })
    expect(readAlike()?.map((f) => f.domainname)).toEqual(names)
  })

  it("go with the account's rows when the account is removed", () => {
    const store = open()
    store.putList('acct', 'domains.whois.list', {}, whois(4), T1)
    store.putList('other', 'domains.whois.list', {}, whois(3), T1)
    store.removeAccount('acct')
    const db = new Database(file)
    try {
      expect(count(db, 'SELECT count(*) AS n FROM whois_flags')).toBe(3)
      expect(staleFlags(db)).toBe(0)
    } finally {
      db.close()
    }
    expect(store.readWhoisPrivacy('other')?.items).toEqual(whoisPrivacyOf(whois(3)))
  })

  it('are kept for the WHOIS rows a store of version 7 already holds, once it is opened', () => {
    const conn = openConnection(file)
    migrate(conn, 7)
    conn.write(() => {
      conn.run(
        "INSERT INTO lists (id, account_id, list, params_key, read_at, complete) VALUES (1, 'acct', 'domains.whois.list', '', ?, 1)",
        [T1],
      )
      conn.run(
        "INSERT INTO lists (id, account_id, list, params_key, read_at, complete) VALUES (2, 'acct', 'domains.list', '', ?, 1)",
        [T1],
      )
      whois(6).forEach((w, i) =>
        conn.run('INSERT INTO list_items (list_id, item_key, pos, json) VALUES (1, ?, ?, ?)', [
          w.domainname,
          i,
          JSON.stringify(w),
        ]),
      )
      conn.run(
        "INSERT INTO list_items (list_id, item_key, pos, json) VALUES (1, 'site1.example', 1, ?) ON CONFLICT DO UPDATE SET json = excluded.json",
        [rawText('site5.example')],
      )
      conn.run("INSERT INTO list_items (list_id, item_key, pos, json) VALUES (2, 'other.example', 0, ?)", [
        itemText(1, 'other.example', '1'),
      ])
    })
    conn.close()

    const problems: StoreProblem[] = []
    const store = open((p) => problems.push(p))
    expect(store.problem).toBeUndefined()
    const db = new Database(file)
    try {
      expect(z.object({ user_version: z.number() }).parse(db.prepare('PRAGMA user_version').get([])).user_version).toBe(
        SCHEMA_VERSION,
      )
      expect(staleFlags(db)).toBe(0)
      expect(count(db, 'SELECT count(*) AS n FROM whois_flags')).toBe(6)
      expect(count(db, 'SELECT count(*) AS n FROM whois_flags WHERE flags IS NULL')).toBe(1)
      expect(keptFlags(db, idOf(db, 'site0.example'))).toBe('["site0.example","1"]')
    } finally {
      db.close()
    }
    const { flags, list } = flagsAndList(store, problems)
    expect(flags).toEqual(list)
    expect(flags.answer).toMatchObject({ skipped: 1, readAt: T1 })
    expect(flags.answer?.items).toEqual(whoisPrivacyOf(whois(6).filter((w) => w.domainname !== 'site1.example')))
  })

  describe('kept by a check the file no longer has', () => {
    /** The file's triggers of whois_flags, as SQLite keeps their text. */
    const triggersOf = (db: Database.Database): { name: string; sql: string }[] =>
      z
        .array(z.object({ name: z.string(), sql: z.string() }))
        .parse(
          db
            .prepare(
              "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'whois_flags_%' ORDER BY name",
            )
            .all([]),
        )
    /** The file's triggers replaced by `edit` of their text: what another version of the app would have made. */
    const remake = (db: Database.Database, edit: (sql: string) => string): void => {
      const triggers = triggersOf(db)
      expect(triggers).toHaveLength(4)
      for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`)
      for (const t of triggers) db.exec(edit(t.sql))
    }

    it('are made again by this check: flags a laxer check kept of a row that is not an item are never read', () => {
      const problems: StoreProblem[] = []
      const store = open((p) => problems.push(p))
      store.putList('acct', 'domains.whois.list', {}, whois(6), T1)
      store.close()
      opened.splice(0)
      const db = new Database(file)
      try {
        // A version whose check took any JSON text: it keeps the members of a row whose contact is not the schema's.
        remake(db, (sql) => sql.replace(ROW_IS_ITEM, 'json_valid(li.json)'))
        db.prepare('UPDATE list_items SET json = ? WHERE item_key = ?').run([rawText('site6.example'), 'site2.example'])
        expect(keptFlags(db, idOf(db, 'site2.example'))).toBe('["site6.example","1"]')
        expect(staleFlags(db)).toBe(1)
      } finally {
        db.close()
      }
      const reopened = open((p) => problems.push(p))
      const { flags, list } = flagsAndList(reopened, problems)
      expect(flags).toEqual(list)
      expect(flags.answer?.skipped).toBe(1)
      expect(flags.answer?.items.map((f) => f.domainname)).not.toContain('site6.example')
      reopened.close()
      opened.splice(0)
      const after = new Database(file)
      try {
        expect(staleFlags(after)).toBe(0)
        expect(triggersOf(after).filter((t) => t.sql.includes(ROW_IS_ITEM))).toHaveLength(2)
      } finally {
        after.close()
      }
    })

    it("are made again by this SQLite's JSON functions when another SQLite made them", () => {
      const problems: StoreProblem[] = []
      const store = open((p) => problems.push(p))
      store.putList('acct', 'domains.whois.list', {}, whois(6), T1)
      store.close()
      opened.splice(0)
      const db = new Database(file)
      try {
        const version = z.object({ v: z.string() }).parse(db.prepare('SELECT sqlite_version() AS v').get([])).v
        expect(triggersOf(db).filter((t) => t.sql.includes(`SQLite ${version} `))).toHaveLength(2)
        remake(db, (sql) => sql.replace(`SQLite ${version} `, 'SQLite 3.0.0 '))
        // What that SQLite's functions might have said of a row: not what this one reads in it.
        db.prepare('UPDATE whois_flags SET flags = ? WHERE item_id = ?').run([
          '["site1.example","1"]',
          idOf(db, 'site1.example'),
        ])
      } finally {
        db.close()
      }
      const reopened = open((p) => problems.push(p))
      const { flags, list } = flagsAndList(reopened, problems)
      expect(flags).toEqual(list)
      expect(flags.answer?.items).toEqual(whoisPrivacyOf(whois(6)))
    })

    it('are made again, with their triggers, when the triggers were dropped', () => {
      const problems: StoreProblem[] = []
      const store = open((p) => problems.push(p))
      store.putList('acct', 'domains.whois.list', {}, whois(6), T1)
      store.close()
      opened.splice(0)
      const db = new Database(file)
      try {
        for (const trigger of ['whois_flags_ai', 'whois_flags_au', 'whois_flags_ap', 'whois_flags_ad'])
          db.exec(`DROP TRIGGER ${trigger}`)
        db.prepare('UPDATE list_items SET json = ? WHERE item_key = ?').run([
          itemText(7001, 'site1.example', '1'),
          'site1.example',
        ])
        expect(staleFlags(db)).toBe(1)
      } finally {
        db.close()
      }
      const reopened = open((p) => problems.push(p))
      const { flags, list } = flagsAndList(reopened, problems)
      expect(flags).toEqual(list)
      expect(flags.answer?.items[1]).toEqual({ domainname: 'site1.example', whoisproxy: '1' })
      const after = new Database(file)
      try {
        after
          .prepare('UPDATE list_items SET json = ? WHERE item_key = ?')
          .run([itemText(7002, 'site2.example', '1'), 'site2.example'])
        expect(staleFlags(after)).toBe(0)
      } finally {
        after.close()
      }
    })

    it('are made again, with their table, when the table was dropped', () => {
      open().putList('acct', 'domains.whois.list', {}, whois(6), T1)
      for (const s of opened.splice(0)) s.close()
      const db = new Database(file)
      try {
        db.exec('DROP TABLE whois_flags')
      } finally {
        db.close()
      }
      const problems: StoreProblem[] = []
      const reopened = open((p) => problems.push(p))
      expect(reopened.problem).toBeUndefined()
      reopened.putList('acct', 'domains.whois.list', {}, whois(7), T2)
      const { flags, list } = flagsAndList(reopened, problems)
      expect(flags).toEqual(list)
      expect(flags.answer?.items).toEqual(whoisPrivacyOf(whois(7)))
      const after = new Database(file)
      try {
        expect(staleFlags(after)).toBe(0)
      } finally {
        after.close()
      }
    })

    it("are left as they are by an opening that finds this version's triggers", () => {
      open().putList('acct', 'domains.whois.list', {}, whois(3), T1)
      for (const s of opened.splice(0)) s.close()
      open().close()
      opened.splice(0)
      const conn = openConnection(file)
      try {
        expect(keepWhoisFlags(conn)).toBe(false)
      } finally {
        conn.close()
      }
    })
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
