/**
 * The portfolio store on real database files in temporary folders: opening and migrating,
 * damaged files, lists and their counts, rows damaged in the file, account removal, secrets,
 * readers during a refresh, search and the exports.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { AppError } from '../../src/main/base/app-error'
import { createApiClient } from '../../src/main/http'
import {
  CSV_COLUMNS,
  openPortfolioStore,
  type ListParams,
  type PortfolioStore,
  type SearchHit,
  type StoreProblem,
  type StoredListName,
} from '../../src/main/store'
import { SCHEMA_VERSION, APPLICATION_ID, TRIGRAM_HASH_BYTES, migrate } from '../../src/main/store/migrations'
import { openConnection } from '../../src/main/store/database'
import { TRIGRAM_INDEXES } from '../../src/main/store/search-index'
import type { PagedItem } from '@shared/endpoints/table'
import type { StoredList } from '@shared/portfolio'
import { startSandbox } from '../../src/sandbox'
import { accountLists, putAccount } from '../../support/portfolio-data'
import { match } from '../helpers/matchers'
import { rawPayload } from '../helpers/raw-payload'

let dir: string
let file: string
const opened: PortfolioStore[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portfolio-store-'))
  file = join(dir, 'portfolio.db')
})
afterEach(() => {
  for (const s of opened.splice(0)) s.close()
  rmSync(dir, { recursive: true, force: true })
})

function open(path = file, opts: Parameters<typeof openPortfolioStore>[1] = {}): PortfolioStore {
  const s = openPortfolioStore(path, opts)
  opened.push(s)
  return s
}

/** A connection of the test's own, to look at (or damage) the file as any program could. */
function raw(path = file): Database.Database {
  return new Database(path)
}
const count = (db: Database.Database, sql: string, ...params: (string | number)[]): number =>
  z.object({ n: z.number() }).parse(db.prepare(sql).get(params)).n

const T1 = '2025-01-10T08:00:00.000Z'
const T2 = '2025-01-11T08:00:00.000Z'
const T3 = '2025-01-12T08:00:00.000Z'

type DomainItem = PagedItem<'domains.list'>
const domain = (name: string, extra: Partial<DomainItem> = {}): DomainItem => ({
  domainid: 1000 + name.length,
  domainname: name,
  registrar: 'reg',
  expirationdate: '2026-01-01',
  autorenew: 0,
  autorenew_all: 0,
  autorenew_domain: 0,
  ...extra,
})
const domains = (n: number, prefix = 'site', extra: Partial<DomainItem> = {}): DomainItem[] =>
  Array.from({ length: n }, (_, i) => ({ ...domain(`${prefix}${i}.example`, extra), domainid: 5000 + i }))

const dnsItem = (name: string, records: string, ttl = 3600): PagedItem<'domains.dns.list'> => ({
  domainid: 1,
  domainname: name,
  ns_type: 'svc1',
  records,
  ttl,
})

// ------------------------------------------------------------------ opening

describe('opening and migrating', () => {
  it('makes a new store where there is no file, in a folder that does not exist yet', () => {
    const path = join(dir, 'not', 'yet', 'portfolio.db')
    const store = open(path)
    expect(store.problem).toBeUndefined()
    expect(store.file).toBe(path)
    store.close()
    const db = raw(path)
    expect(z.object({ user_version: z.number() }).parse(db.prepare('PRAGMA user_version').get([])).user_version).toBe(
      SCHEMA_VERSION,
    )
    expect(
      z.object({ application_id: z.number() }).parse(db.prepare('PRAGMA application_id').get([])).application_id,
    ).toBe(APPLICATION_ID)
    expect(z.object({ journal_mode: z.string() }).parse(db.prepare('PRAGMA journal_mode').get([])).journal_mode).toBe(
      'wal',
    )
    db.close()
  })

  it('migrates an empty file', () => {
    writeFileSync(file, '')
    const store = open()
    expect(store.problem).toBeUndefined()
    store.putList('acct', 'domains.list', {}, [domain('a.example')], T1)
    expect(store.getList('acct', 'domains.list', {})?.items).toHaveLength(1)
  })

  it('keeps what it holds across reopening', () => {
    let store = open()
    store.putList('acct', 'domains.list', {}, domains(3), T1, { complete: false })
    store.putZone('acct', 'dns', 'site0.example', { records: 'a www 192.0.2.10', ttl: 600, ns_type: 'svc1' }, T1)
    store.close()
    store = open()
    expect(store.problem).toBeUndefined()
    expect(store.getList('acct', 'domains.list', {})).toEqual({
      items: domains(3),
      readAt: T1,
      complete: false,
      skipped: 0,
    })
    expect(store.getZone('acct', 'dns', 'site0.example')).toEqual({
      records: 'a www 192.0.2.10',
      ttl: 600,
      ns_type: 'svc1',
      readAt: T1,
    })
    expect(store.search('192.0.2.10').map((h) => h.key)).toEqual(['site0.example'])
  })

  const now = () => new Date('2025-02-03T04:05:06.789Z')

  it.each([
    ['random bytes', () => randomBytes(64 * 1024), 'notADatabase'],
    ['a text file', () => Buffer.from('accounts:\n  - demo\n'.repeat(200)), 'notADatabase'],
  ] as const)('moves %s aside, reports it and works empty', (_label, bytes, reason) => {
    const content = bytes()
    writeFileSync(file, content)
    const problems: StoreProblem[] = []
    const store = open(file, { now, onProblem: (p) => problems.push(p) })
    const expected = {
      code: 'store.movedAside',
      params: { movedTo: `${file}.corrupt-2025-02-03T04-05-06-789Z`, reason },
    }
    expect(store.problem).toEqual(expected)
    expect(problems).toEqual([expected])
    expect(readFileSync(`${file}.corrupt-2025-02-03T04-05-06-789Z`)).toEqual(content)
    expect(store.file).toBe(file)
    expect(store.getList('acct', 'domains.list', {})).toBeUndefined()
    store.putList('acct', 'domains.list', {}, domains(2), T1)
    store.close()
    expect(open().getList('acct', 'domains.list', {})?.items).toHaveLength(2)
  })

  it('moves aside a store whose pages were damaged', () => {
    const store = open()
    putAccount(store, 'acct', accountLists({ domains: 300 }), T1)
    store.close()
    // Garbage over pages in the middle of the file: SQLite's own check finds it.
    const bytes = readFileSync(file)
    expect(bytes.length).toBeGreaterThan(40 * 4096)
    randomBytes(8 * 4096).copy(bytes, 20 * 4096)
    writeFileSync(file, bytes)
    const again = open(file, { now })
    expect(again.problem).toMatchObject({
      code: 'store.movedAside',
      params: { reason: match.stringMatching(/damaged|notADatabase/) },
    })
    expect(again.getList('acct', 'domains.list', {})).toBeUndefined()
  })

  it("moves aside another program's database instead of migrating into it", () => {
    const db = raw()
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)')
    db.close()
    const store = open(file, { now })
    expect(store.problem).toMatchObject({ code: 'store.movedAside', params: { reason: 'foreign' } })
    const aside = raw(`${file}.corrupt-2025-02-03T04-05-06-789Z`)
    expect(count(aside, "SELECT count(*) AS n FROM sqlite_schema WHERE name = 'notes'")).toBe(1)
    aside.close()
  })

  it('moves aside a folder that stands where the file should be', () => {
    mkdirSync(file)
    const store = open(file, { now })
    expect(store.problem).toMatchObject({ code: 'store.movedAside', params: { reason: 'unreadable' } })
    store.putList('acct', 'domains.list', {}, domains(1), T1)
  })

  it('opens a store of version 2, whose search had a row per record, with every zone found by its records', () => {
    // A version 2 file as version 2 wrote it: a zone, and its records' rows in the search with their trigram index.
    const conn = openConnection(file)
    migrate(conn, 2)
    conn.write(() => {
      conn.run(
        "INSERT INTO zones (id, account_id, kind, domain, records, ttl, ns_type, record_count, read_at) VALUES (7, 'acct', 'dns', 'a.example', ?, 3600, 'svc1', 2, ?)",
        ['a www 192.0.2.10\nmx mail.a.example. 10', T1],
      )
      for (const [field, text, detail] of [
        [1, 'www.a.example', 'a www 192.0.2.10'],
        [2, '192.0.2.10', 'a www 192.0.2.10'],
        [2, 'mail.a.example. 10', 'mx mail.a.example. 10'],
      ] as const) {
        conn.run(
          "INSERT INTO search (account_id, zone_id, kind, field, text, key, label, detail, scope) VALUES ('acct', 7, 4, ?, ?, 'a.example', 'a.example', ?, 'dns')",
          [field, text, detail],
        )
      }
      conn.run('INSERT INTO search_fts_4 (rowid, text) SELECT id, text FROM search WHERE kind = 4')
    })
    conn.close()

    const store = open()
    expect(store.problem).toBeUndefined()
    const hits = store.search('192.0.2.10')
    expect(hits.map((h) => [h.accountId, h.kind, h.zone, h.key, h.field, h.detail, h.match])).toEqual([
      ['acct', 'record', 'dns', 'a.example', 'value', 'a www 192.0.2.10', 'exact'],
    ])
    expect(store.search('mail.a').map((h) => [h.key, h.detail, h.match])).toEqual([
      ['a.example', 'mx mail.a.example. 10', 'prefix'],
    ])
    store.close()
    const db = raw()
    expect(count(db, 'SELECT count(*) AS n FROM search')).toBe(0)
    expect(count(db, 'SELECT count(*) AS n FROM zone_search')).toBe(1)
    for (const t of TRIGRAM_INDEXES) db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('integrity-check', 1)`)
    db.close()
  })

  it('gives every trigram index a 16 MB store of pending changes, a file of version 6 too (migration 7)', () => {
    const conn = openConnection(file)
    migrate(conn, 6)
    conn.close()
    open().close()
    const db = raw()
    for (const t of TRIGRAM_INDEXES) {
      const row = db.prepare(`SELECT v FROM ${t}_config WHERE k = 'hashsize'`).get([])
      expect(z.object({ v: z.number() }).parse(row).v, t).toBe(TRIGRAM_HASH_BYTES)
    }
    db.close()
  })

  it('opens a store of version 4 that holds a job item twice with its first row only, a snapshot linked to the other moved to it', () => {
    const conn = openConnection(file)
    migrate(conn, 4)
    conn.write(() => {
      const row = (id: number, outcome: string) =>
        conn.run(
          "INSERT INTO history (id, account_id, subject_kind, subject, origin, aspect, operation, outcome, job_id, item_index, at) VALUES (?, 'acct', 'domain', 'a.example', 'app', 'dns', 'domains.dns.set', ?, 'w-1', 0, ?)",
          [id, outcome, T1],
        )
      row(1, 'unknown')
      row(2, 'done')
      conn.run(
        "INSERT INTO history (id, account_id, subject_kind, subject, origin, aspect, operation, outcome, job_id, item_index, at) VALUES (3, 'acct', 'domain', 'a.example', 'app', 'dns', 'domains.dns.set', 'done', 'w-1', 1, ?)",
        [T1],
      )
      conn.run(
        "INSERT INTO zone_snapshots (id, account_id, kind, domain, records, reason, history_id, at) VALUES (9, 'acct', 'dns', 'a.example', 'a www 192.0.2.1', 'before-save', 2, ?)",
        [T1],
      )
    })
    conn.close()
    const store = open(file, { now: () => new Date(T2) })
    expect(store.problem).toBeUndefined()
    expect(store.history.keptWrites(['w-1'])).toEqual([
      { jobId: 'w-1', itemIndex: 0, outcome: 'unknown' },
      { jobId: 'w-1', itemIndex: 1, outcome: 'done' },
    ])
    expect(store.history.list({ accountId: 'acct' }).find((h) => h.id === 1)?.snapshotId).toBe(9)
  })

  it('keeps a write’s row once per job item: offered again (its worker died having written it), the first row stays and its id is answered', () => {
    const store = open(file, { now: () => new Date(T2) })
    const write = {
      accountId: 'acct',
      subjectKind: 'domain',
      subject: 'a.example',
      aspect: 'expiration',
      operation: 'domains.expiration.renew',
      params: { years: 1 },
      jobId: 'w-2',
      itemIndex: 0,
      at: T1,
    } as const
    const id = store.history.recordWrite({ ...write, outcome: 'unknown' })
    expect(store.history.recordWrite({ ...write, outcome: 'done', at: T2 })).toBe(id)
    expect(store.history.keptWrites(['w-2', 'w-none'])).toEqual([{ jobId: 'w-2', itemIndex: 0, outcome: 'unknown' }])
    expect(store.history.list({ accountId: 'acct' }).map((h) => [h.id, h.outcome, h.at])).toEqual([[id, 'unknown', T1]])
    // The file refuses a second row of the item, whoever writes it.
    const db = raw()
    expect(() =>
      db
        .prepare(
          "INSERT INTO history (account_id, subject_kind, subject, origin, aspect, job_id, item_index, at) VALUES ('acct', 'domain', 'a.example', 'app', 'expiration', 'w-2', 0, ?)",
        )
        .run([T2]),
    ).toThrow(/UNIQUE/)
    db.close()
  })

  it('leaves a newer version’s store alone and keeps this run’s store in memory', () => {
    open().close()
    opened.splice(0)
    const db = raw()
    db.exec('PRAGMA user_version = 99')
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    db.close()
    const before = readFileSync(file)
    const store = open()
    expect(store.problem).toEqual({ code: 'store.newerSchema', params: { version: 99, supported: SCHEMA_VERSION } })
    expect(store.file).toBe(':memory:')
    store.putList('acct', 'domains.list', {}, domains(1), T1)
    expect(store.getList('acct', 'domains.list', {})?.items).toHaveLength(1)
    store.close()
    expect(readFileSync(file)).toEqual(before)
  })

  it('works in memory when the data folder cannot be made, and says why', () => {
    writeFileSync(join(dir, 'plain-file'), 'x')
    const store = open(join(dir, 'plain-file', 'portfolio.db'))
    expect(store.problem).toMatchObject({
      code: 'store.unavailable',
      params: { path: join(dir, 'plain-file', 'portfolio.db') },
    })
    expect(store.file).toBe(':memory:')
    store.putList('acct', 'domains.list', {}, domains(1), T1)
    expect(store.getList('acct', 'domains.list', {})?.items).toHaveLength(1)
  })
})

// ------------------------------------------------------------------ lists

describe('lists', () => {
  it('replaces a list and counts what was added, changed and removed; keeps the time, completeness and order', () => {
    const store = open()
    const first = domains(60)
    expect(store.putList('acct', 'domains.list', {}, first, T1)).toEqual({
      added: 60,
      changed: 0,
      removed: 0,
      duplicates: 0,
      drift: 0,
    })
    expect(store.getList('acct', 'domains.list', {})).toEqual({ items: first, readAt: T1, complete: true, skipped: 0 })

    // One renewed, two gone, one new, and the service's order reversed.
    const second = first.filter((d) => d.domainname !== 'site3.example' && d.domainname !== 'site4.example')
    second[0] = { ...second[0]!, expirationdate: '2027-01-01' }
    second.push(domain('new.example'))
    second.reverse()
    // The one change from outside is also named (team mode shares it with the team).
    expect(store.putList('acct', 'domains.list', {}, second, T2, { complete: false })).toEqual({
      added: 1,
      changed: 1,
      removed: 2,
      duplicates: 0,
      drift: 1,
      findings: [{ subjectKind: 'domain', subject: 'site0.example', aspect: 'expiration', at: T2 }],
    })
    expect(store.getList('acct', 'domains.list', {})).toEqual({
      items: second,
      readAt: T2,
      complete: false,
      skipped: 0,
    })

    expect(store.putList('acct', 'domains.list', {}, second, T3)).toEqual({
      added: 0,
      changed: 0,
      removed: 0,
      duplicates: 0,
      drift: 0,
    })
    expect(store.getList('acct', 'domains.list', {})?.readAt).toBe(T3)
    expect(store.putList('acct', 'domains.list', {}, [], T3)).toEqual({
      added: 0,
      changed: 0,
      removed: 59,
      duplicates: 0,
      drift: 0,
    })
    expect(store.getList('acct', 'domains.list', {})).toEqual({ items: [], readAt: T3, complete: true, skipped: 0 })
  })

  it('keeps the first of two items with the same identity and counts the other', () => {
    const store = open()
    const twice = [domain('a.example'), domain('b.example'), domain('a.example', { registrar: 'other' })]
    expect(store.putList('acct', 'domains.list', {}, twice, T1)).toEqual({
      added: 2,
      changed: 0,
      removed: 0,
      duplicates: 1,
      drift: 0,
    })
    expect(store.getList('acct', 'domains.list', {})?.items.map((d) => d.registrar)).toEqual(['reg', 'reg'])
  })

  it('keeps a list per account and per parameter (server kind, domain); order is not part of it', () => {
    const store = open()
    const lists = accountLists({ domains: 20 })
    store.putList('one', 'servers.list', { kind: 'a' }, lists.servers.a, T1)
    store.putList('one', 'servers.list', { kind: 'b' }, lists.servers.b, T1)
    store.putList('two', 'servers.list', { kind: 'a' }, lists.servers.a.slice(0, 2), T2)
    const ns = (host: string): PagedItem<'domains.privatenameserver.list'> => ({
      domainid: 1,
      domainname: 'a.example',
      hostname: host,
      ipv4: '192.0.2.1',
      ipv6: '',
    })
    store.putList(
      'one',
      'domains.privatenameserver.list',
      { domain: 'a.example' },
      [ns('ns1.a.example'), ns('ns2.a.example')],
      T1,
    )
    store.putList('one', 'domains.privatenameserver.list', { domain: 'b.example' }, [], T1)
    store.putList('one', 'domains.list', { order: 'ASC' }, domains(2), T1)

    expect(store.getList('one', 'servers.list', { kind: 'a' })?.items).toEqual(lists.servers.a)
    expect(store.getList('one', 'servers.list', { kind: 'b' })?.items).toEqual(lists.servers.b)
    expect(store.getList('one', 'servers.list', { kind: 'c' })).toBeUndefined()
    expect(store.getList('two', 'servers.list', { kind: 'a' })?.items).toHaveLength(2)
    expect(
      store.getList('one', 'domains.privatenameserver.list', { domain: 'a.example' })?.items.map((n) => n.hostname),
    ).toEqual(['ns1.a.example', 'ns2.a.example'])
    expect(store.getList('one', 'domains.privatenameserver.list', { domain: 'b.example' })?.items).toEqual([])
    expect(store.getList('one', 'domains.list', {})?.items).toHaveLength(2)
    expect(store.getList('one', 'domains.list', { order: 'DESC' })?.items).toHaveLength(2)
  })

  it('gives back every list of an account as it was read, secrets left out', () => {
    const store = open()
    const lists = accountLists({ domains: 25 })
    putAccount(store, 'acct', lists, T1)
    expect(store.getList('acct', 'domains.list', {})?.items).toEqual(lists.domains)
    expect(store.getList('acct', 'domains.whois.list', {})?.items).toEqual(lists.whois)
    expect(store.getList('acct', 'domains.dnssec.list', {})?.items).toEqual(lists.dnssec)
    expect(store.getList('acct', 'domains.nameserver.list', {})?.items).toEqual(lists.nameserver)
    expect(store.getList('acct', 'svcips.list', {})?.items).toEqual(lists.svcips)
    // The transfer code is not kept: it reads back empty, everything else as it was.
    expect(lists.transferlock.every((t) => t.authcode.length > 0)).toBe(true)
    expect(store.getList('acct', 'domains.transferlock.list', {})?.items).toEqual(
      lists.transferlock.map((t) => ({ ...t, authcode: '' })),
    )
  })

  it('refuses what it cannot keep: an account id, a time or parameters of the wrong shape', () => {
    const store = open()
    const refused = (fn: () => unknown) => {
      try {
        fn()
      } catch (err) {
        return err instanceof AppError ? err.kind : 'other'
      }
      return 'accepted'
    }
    expect(refused(() => store.putList('Not An Id', 'domains.list', {}, [], T1))).toBe('validation')
    expect(refused(() => store.putList('acct', 'domains.list', {}, [], 'yesterday'))).toBe('validation')
    expect(refused(() => store.putList('acct', 'servers.list', rawPayload({ kind: 'z' }), [], T1))).toBe('validation')
    expect(refused(() => store.putZone('acct', 'dns', '../etc', { records: '' }, T1))).toBe('validation')
    expect(refused(() => store.getList('acct', rawPayload('logs.list'), {}))).toBe('validation')
  })

  it('skips and reports rows damaged in the file instead of failing', () => {
    const problems: StoreProblem[] = []
    const store = open(file, { onProblem: (p) => problems.push(p) })
    store.putList('acct', 'domains.list', {}, domains(10), T1)
    const db = raw()
    db.prepare('UPDATE list_items SET json = \'{"domainid": "not a number"}\' WHERE item_key = ?').run([
      'site3.example',
    ])
    db.prepare("UPDATE list_items SET json = 'not json at all' WHERE item_key = ?").run(['site7.example'])
    db.close()
    const list = store.getList('acct', 'domains.list', {})
    expect(list?.items.map((d) => d.domainname)).toEqual(
      domains(10)
        .map((d) => d.domainname)
        .filter((n) => n !== 'site3.example' && n !== 'site7.example'),
    )
    expect(list?.skipped).toBe(2)
    expect(problems).toEqual([
      {
        code: 'store.rowSkipped',
        params: { table: 'list_items', accountId: 'acct', list: 'domains.list', key: 'site3.example' },
      },
      {
        code: 'store.rowSkipped',
        params: { table: 'list_items', accountId: 'acct', list: 'domains.list', key: 'site7.example' },
      },
    ])
    // The next read of the list writes them again.
    expect(store.putList('acct', 'domains.list', {}, domains(10), T2)).toMatchObject({ changed: 2 })
    expect(store.getList('acct', 'domains.list', {})?.skipped).toBe(0)
  })

  it("reads a list in its order whether its rows lie together, among another list's, or far apart", () => {
    const store = open()
    const names = (account: string) => store.getList(account, 'domains.list', {})?.items.map((d) => d.domainname)
    // Written at once, then another account's rows, then two more of the first list's after them:
    // its rows span the other list's, which are not part of it.
    store.putList('near', 'domains.list', {}, domains(10), T1)
    store.putList('other', 'domains.list', {}, domains(3, 'other'), T1)
    const near = [domain('new1.example'), ...domains(10).reverse(), domain('new2.example')]
    store.putList('near', 'domains.list', {}, near, T2)
    expect(names('near')).toEqual(near.map((d) => d.domainname))
    expect(names('other')).toEqual(['other0.example', 'other1.example', 'other2.example'])
    // Two rows, then many of another list, then one more: its rows lie far apart.
    store.putList('far', 'domains.list', {}, domains(2, 'far'), T1)
    store.putList('other', 'domains.list', {}, domains(30, 'other'), T2)
    const far = [domain('last.example'), ...domains(2, 'far')]
    store.putList('far', 'domains.list', {}, far, T2)
    expect(names('far')).toEqual(far.map((d) => d.domainname))
    expect(store.getList('far', 'domains.list', {})?.items).toEqual(far)
  })

  it("reads a list longer than one stretch of the table, across another list's rows, in its order", () => {
    const problems: StoreProblem[] = []
    const store = open(file, { onProblem: (p) => problems.push(p) })
    const names = (list: StoredList<'domains.list'> | undefined) => list?.items.map((d) => d.domainname)
    // 10,000 rows, another account's 10,000, then 10,000 more of the first list's put before its
    // own: the list's rows span three stretches of 10,000 ids (wholeList), the middle one none of
    // its own, and their positions are not in the table's order.
    const first = domains(10_000, 'first')
    store.putList('acct', 'domains.list', {}, first, T1)
    store.putList('other', 'domains.list', {}, domains(10_000, 'other'), T1)
    const both = [...domains(10_000, 'late'), ...first]
    store.putList('acct', 'domains.list', {}, both, T2)
    const db = raw()
    const span = z
      .object({ lo: z.number(), hi: z.number(), n: z.number() })
      .parse(
        db
          .prepare(
            "SELECT min(i.id) AS lo, max(i.id) AS hi, count(*) AS n FROM list_items i JOIN lists l ON l.id = i.list_id WHERE l.account_id = 'acct'",
          )
          .get([]),
      )
    expect(span.n).toBe(20_000)
    expect(span.hi - span.lo + 1).toBe(30_000)
    expect(store.getList('acct', 'domains.list', {})).toEqual({ items: both, readAt: T2, complete: true, skipped: 0 })
    // A row damaged in the last stretch: that row is named and left out, the rest read.
    db.prepare("UPDATE list_items SET json = 'not json at all' WHERE item_key = ?").run(['late9999.example'])
    db.close()
    const damaged = store.getList('acct', 'domains.list', {})
    expect(names(damaged)).toEqual(both.map((d) => d.domainname).filter((n) => n !== 'late9999.example'))
    expect(damaged?.skipped).toBe(1)
    expect(problems).toEqual([
      {
        code: 'store.rowSkipped',
        params: { table: 'list_items', accountId: 'acct', list: 'domains.list', key: 'late9999.example' },
      },
    ])
  })

  it('reads back the text it wrote whether it is ASCII or not, in a stretch of any length', () => {
    const store = open()
    // Over 1 MB of text in one stretch (Node keeps a string that long outside V8's heap), and a
    // few rows; each as ASCII, and with characters of two, three and four bytes in UTF-8.
    const ascii = domains(12_000, 'long')
    const other = domains(12_000, 'ドメイン', { registrar: 'Registrar GmbH ü — 株式会社 🌐' })
    const lists: [string, DomainItem[]][] = [
      ['ascii', ascii],
      ['other', other],
      ['ascii-few', ascii.slice(0, 3)],
      ['other-few', other.slice(0, 3)],
    ]
    for (const [account, items] of lists) store.putList(account, 'domains.list', {}, items, T1)
    for (const [account, items] of lists)
      expect(store.getList(account, 'domains.list', {})).toEqual({ items, readAt: T1, complete: true, skipped: 0 })
  })

  it('reads a domain stored with a member this version does not know without that member', () => {
    const store = open()
    store.putList('acct', 'domains.list', {}, domains(3), T1)
    const db = raw()
    db.prepare("UPDATE list_items SET json = json_set(json, '$.retired', 1) WHERE item_key = ?").run(['site1.example'])
    db.close()
    expect(store.getList('acct', 'domains.list', {})).toEqual({
      items: domains(3),
      readAt: T1,
      complete: true,
      skipped: 0,
    })
  })

  it('names a row that is two values in one, or JSON but not an item, when the rest of the list reads', () => {
    const problems: StoreProblem[] = []
    const store = open(file, { onProblem: (p) => problems.push(p) })
    const five = domains(5)
    store.putList('acct', 'domains.list', {}, five, T1)
    const names = (list: StoredList<'domains.list'> | undefined) => list?.items.map((d) => d.domainname)
    const db = raw()
    const [, second, third, fourth, fifth] = five.map((d) => d.domainname)
    db.prepare('UPDATE list_items SET json = ? WHERE item_key = ?').run([
      `${JSON.stringify(five[3])},${JSON.stringify(five[4])}`,
      third,
    ])
    const twoInOne = store.getList('acct', 'domains.list', {})
    expect(names(twoInOne)).toEqual(five.map((d) => d.domainname).filter((n) => n !== third))
    expect(twoInOne?.skipped).toBe(1)
    db.prepare('UPDATE list_items SET json = \'{"domainid": "not a number"}\' WHERE item_key = ?').run([second])
    db.close()
    const notAnItem = store.getList('acct', 'domains.list', {})
    expect(names(notAnItem)).toEqual([five[0]?.domainname, fourth, fifth])
    expect(notAnItem?.skipped).toBe(2)
    expect(problems.map((p) => ('key' in p.params ? p.params.key : undefined))).toEqual([third, second, third])
  })

  it('a read of the DNS list is a read of each zone; a zone read alone updates the list', () => {
    const store = open()
    store.putList(
      'acct',
      'domains.dns.list',
      {},
      [dnsItem('a.example', 'a www 192.0.2.1'), dnsItem('b.example', 'a www 192.0.2.2')],
      T1,
    )
    expect(store.getZone('acct', 'dns', 'a.example')).toEqual({
      records: 'a www 192.0.2.1',
      ttl: 3600,
      ns_type: 'svc1',
      readAt: T1,
    })
    store.putZone('acct', 'dns', 'a.example', { records: 'a www 192.0.2.99', ttl: 600, ns_type: 'svc1' }, T2)
    expect(store.getList('acct', 'domains.dns.list', {})?.items[0]).toMatchObject({
      domainname: 'a.example',
      records: 'a www 192.0.2.99',
      ttl: 600,
    })
    expect(store.search('192.0.2.1').filter((h) => h.match === 'exact')).toEqual([])
    expect(store.search('192.0.2.99').map((h) => h.key)).toEqual(['a.example'])
    // b.example gone from the next read: its zone goes too.
    store.putList('acct', 'domains.dns.list', {}, [dnsItem('a.example', 'a www 192.0.2.99', 600)], T3)
    expect(store.getZone('acct', 'dns', 'b.example')).toBeUndefined()
    expect(store.listZones('acct').map((z) => [z.domain, z.recordCount, z.readAt])).toEqual([['a.example', 1, T3]])
    expect(store.search('192.0.2.2')).toEqual([])
  })

  it('finds the zones whose records hold a value as a whole word, across accounts (moving off an address)', () => {
    const store = open()
    store.putList(
      'acct',
      'domains.dns.list',
      {},
      [dnsItem('a.example', 'a www 192.0.2.1\nmx mail.a.example. 10'), dnsItem('b.example', 'a www 192.0.2.10')],
      T1,
    )
    store.putList(
      'other',
      'domains.dns.list',
      {},
      [dnsItem('c.example', 'txt @ "v=spf1 ip4:192.0.2.1 ~all"'), dnsItem('d.example', 'cname www Mail.A.Example')],
      T1,
    )
    const zonesHolding = (value: string, account?: string) =>
      store.listZones(account, value).map((z) => `${z.accountId}/${z.domain}`)
    // 192.0.2.10 does not hold 192.0.2.1; an SPF mechanism does.
    expect(zonesHolding('192.0.2.1')).toEqual(['acct/a.example', 'other/c.example'])
    expect(zonesHolding('192.0.2.1', 'acct')).toEqual(['acct/a.example'])
    // A name with or without its final dot, in any case.
    expect(zonesHolding('mail.a.example')).toEqual(['acct/a.example', 'other/d.example'])
    expect(zonesHolding('192.0.2.99')).toEqual([])
  })
})

// ------------------------------------------------------------------ accounts and secrets

describe('accounts and secrets', () => {
  it('removing an account leaves no row of it, and the others as they were', () => {
    const store = open()
    putAccount(store, 'gone', accountLists({ seed: 1, domains: 40 }), T1)
    putAccount(store, 'kept', accountLists({ seed: 2, domains: 30 }), T1)
    store.putZone('gone', 'freedns', 'free.example', { records: 'a @ 192.0.2.77' }, T1)
    const gone = accountLists({ seed: 1, domains: 40 }).domains.map((d) => d.domainname)
    const kept = new Set(accountLists({ seed: 2, domains: 30 }).domains.map((d) => d.domainname))
    const onlyGone = gone.filter((n) => !kept.has(n))
    const keptBefore = store.search('192.0.2.', 500).filter((h) => h.accountId === 'kept').length
    expect(store.search(onlyGone[0]!).map((h) => h.accountId)).toContain('gone')

    store.removeAccount('gone')
    const db = raw()
    for (const table of ['lists', 'zones', 'search'])
      expect(count(db, `SELECT count(*) AS n FROM ${table} WHERE account_id = ?`, 'gone')).toBe(0)
    expect(count(db, 'SELECT count(*) AS n FROM list_items WHERE list_id NOT IN (SELECT id FROM lists)')).toBe(0)
    // The trigram indexes hold exactly the rows left (FTS5's own check).
    for (const t of TRIGRAM_INDEXES) db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('integrity-check', 1)`)
    expect(count(db, 'SELECT count(*) AS n FROM zone_search WHERE zone_id NOT IN (SELECT id FROM zones)')).toBe(0)
    expect(
      count(db, `SELECT count(*) AS n FROM search WHERE key IN (${onlyGone.map(() => '?').join(',')})`, ...onlyGone),
    ).toBe(0)
    db.close()
    // Nor through the trigram indexes: a substring of its names finds nothing of it.
    for (const name of onlyGone.slice(0, 10))
      expect(store.search(name.slice(2)).some((h) => h.accountId === 'gone')).toBe(false)
    expect(store.search('192.0.2.77')).toEqual([])
    expect(keptBefore).toBeGreaterThan(50)
    expect(store.search('192.0.2.', 500).filter((h) => h.accountId === 'kept')).toHaveLength(keptBefore)
    expect(store.getList('kept', 'domains.list', {})?.items).toHaveLength(30)
  })

  it('never writes an API key, a transfer code or a dynamic DNS password to its file', async () => {
    const sb = await startSandbox({ domains: 30 })
    try {
      sb.state.domains.forEach((d, i) => {
        if (i % 3 === 0) {
          d.dynamicdns = 1
          d.ddnsPassword = `ddns-secret-${i}-Qx7`
        }
      })
      const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const store = open()
      const read = async <N extends StoredListName>(name: N, params: ListParams<N>) => {
        const items = await client.listAll(name, params)
        store.putList('acct', name, params, items, new Date().toISOString())
        return items
      }
      const locks = await read('domains.transferlock.list', {})
      const ddns = await read('domains.dynamicdns.list', {})
      for (const kind of ['a', 'b', 'c'] as const) await read('servers.list', { kind })
      await read('domains.list', {})
      await read('domains.whois.list', {})
      await read('domains.dns.list', {})
      await read('freedns.list', {})
      await read('domains.transfer.list', {})
      const secrets = [
        sb.keys.full,
        sb.keys.readOnly,
        ...locks.map((l) => l.authcode),
        ...ddns.map((d) => d.password).filter((p) => p !== ''),
      ]
      // What was read did carry them: the test would prove nothing otherwise.
      expect(locks.filter((l) => l.authcode.length >= 8)).toHaveLength(30)
      expect(ddns.filter((d) => d.password.startsWith('ddns-secret-'))).toHaveLength(10)

      const bytes = () => Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f)))
      const found = (b: Buffer) => secrets.filter((s) => b.includes(s))
      expect(found(bytes())).toEqual([])
      store.close()
      expect(found(bytes())).toEqual([])
      expect(bytes().includes('ddns-secret-')).toBe(false)
    } finally {
      await sb.close()
    }
  })
})

// ------------------------------------------------------------------ refresh and read at once

describe('a refresh while the list is read', () => {
  const COUNT = 10_000
  /** Version v of the list: every item with the registrar that names its read time. */
  const version = (v: number) => {
    const readAt = new Date(Date.UTC(2025, 0, 1, 0, 0, v)).toISOString()
    return {
      readAt,
      items: domains(COUNT, 'v', { registrar: `reg-${readAt}` }).map((d, i) => ({
        ...d,
        expirationdate: i % 2 ? '2026-01-01' : `2026-02-${10 + (v % 10)}`,
      })),
    }
  }
  const whole = (list: { items: DomainItem[]; readAt: string } | undefined) =>
    list !== undefined && list.items.length === COUNT && list.items.every((d) => d.registrar === `reg-${list.readAt}`)

  it('reads between writes, on the same connection and a second one, always see one whole version', async () => {
    const store = open()
    const other = open(file, { integrityCheck: false })
    let writing = true
    const seen = new Set<string>()
    let reads = 0
    const reader = (async () => {
      while (writing) {
        for (const s of [store, other]) {
          const list = s.getList('acct', 'domains.list', {})
          if (list) {
            reads++
            seen.add(list.readAt)
            expect(whole(list)).toBe(true)
          }
        }
        await new Promise((r) => setImmediate(r))
      }
    })()
    for (let v = 0; v < 4; v++) {
      const { readAt, items } = version(v)
      store.putList('acct', 'domains.list', {}, items, readAt)
      await new Promise((r) => setImmediate(r))
    }
    writing = false
    await reader
    expect(reads).toBeGreaterThanOrEqual(4)
    expect(seen.size).toBeGreaterThanOrEqual(3)
  })

  it('a write left half-done by another connection is not seen', () => {
    const store = open()
    const { readAt, items } = version(1)
    store.putList('acct', 'domains.list', {}, items, readAt)
    const db = raw()
    db.exec('BEGIN IMMEDIATE')
    db.prepare('DELETE FROM list_items WHERE id % 2 = 0').run([])
    db.prepare("UPDATE lists SET read_at = '2030-01-01T00:00:00.000Z'").run([])
    expect(whole(store.getList('acct', 'domains.list', {}))).toBe(true)
    db.exec('ROLLBACK')
    db.close()
  })

  it('a reader in another thread, with its own connection, never sees a half-written list', async () => {
    const store = open()
    const first = version(0)
    store.putList('acct', 'domains.list', {}, first.items, first.readAt)
    // [0]: stop; [1]: reads the reader has done.
    const stop = new SharedArrayBuffer(8)
    const reads = () => Atomics.load(new Int32Array(stop), 1)
    const worker = new Worker(new URL('../helpers/store-reader.boot.mjs', import.meta.url), {
      workerData: { file, accountId: 'acct', count: COUNT, stop },
    })
    const result = new Promise<unknown>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })
    // Let the reader start before the writes begin: its first read done.
    await vi.waitFor(() => expect(reads()).toBeGreaterThan(0), { timeout: 20_000, interval: 5 })
    for (let v = 1; v <= 6; v++) {
      const { readAt, items } = version(v)
      store.putList('acct', 'domains.list', {}, items, readAt)
      // A whole read begun after this write: the one under way may have begun before it.
      const done = reads()
      await vi.waitFor(() => expect(reads()).toBeGreaterThanOrEqual(done + 2), { timeout: 20_000, interval: 5 })
    }
    Atomics.store(new Int32Array(stop), 0, 1)
    const seen = z
      .object({ reads: z.number(), empty: z.number(), versions: z.number(), bad: z.array(z.string()) })
      .parse(await result)
    await worker.terminate()
    expect(seen.bad).toEqual([])
    expect(seen.empty).toBe(0)
    expect(seen.reads).toBeGreaterThan(3)
    expect(seen.versions).toBeGreaterThanOrEqual(2)
  })
})

// ------------------------------------------------------------------ search

describe('search', () => {
  const zone = (records: string[]) => ({ records: records.join('\n'), ttl: 3600 })

  function filled(): PortfolioStore {
    const store = open()
    store.putList(
      'north',
      'domains.list',
      {},
      [domain('shop.example'), domain('myshop.example'), domain('shopping.example'), domain('plain.example')],
      T1,
    )
    store.putList('south', 'domains.list', {}, [domain('shop.example'), domain('other.example')], T1)
    const server = (webid: string, webname: string): PagedItem<'servers.list'> => ({
      webid,
      webname,
      paid: '1',
      starttime: '',
      expirationdate: '',
      plan: 'S10',
      autorenew: 0,
      autorenew_all: 0,
      autorenew_server: 0,
    })
    store.putList('north', 'servers.list', { kind: 'b' }, [server('11', 'shop'), server('12', 'web1')], T1)
    store.putList(
      'north',
      'svcips.list',
      {},
      [
        {
          vipid: '7',
          vipname: 'vip-shop',
          webname: 'web1',
          domainname: 'shop.example',
          paid: '1',
          starttime: '',
          expirationdate: '',
          region: 'JP',
        },
      ],
      T1,
    )
    store.putList(
      'south',
      'freedns.list',
      {},
      [{ domainid: 9, domainname: 'shopfree.example', records: 'a @ 192.0.2.10', ttl: 3600 }],
      T1,
    )
    store.putZone(
      'north',
      'dns',
      'plain.example',
      zone(['a www 192.0.2.10', 'a mail 192.0.2.100', 'cname shop shop.example.']),
      T1,
    )
    store.putZone('north', 'dns', 'shopping.example', zone(['a @ 192.0.2.10', 'mx mail.shopping.example. 10']), T1)
    store.putZone('south', 'dns', 'other.example', zone(['a www 192.0.2.10', 'txt @ v=spf1 ip4:192.0.2.10 -all']), T1)
    return store
  }

  const rank = { exact: 0, prefix: 1, substring: 2 }
  const kindRank = { domain: 0, server: 1, svcip: 2, freedns: 3, record: 4 }
  const inOrder = (hits: SearchHit[]) =>
    hits.every((h, i) => {
      const p = hits[i - 1]
      return (
        !p || rank[p.match] < rank[h.match] || (rank[p.match] === rank[h.match] && kindRank[p.kind] <= kindRank[h.kind])
      )
    })

  it('ranks exact before prefix before substring, and domains before servers, svcips, free DNS and records', () => {
    const hits = filled().search('shop')
    expect(inOrder(hits)).toBe(true)
    expect(hits[0]).toMatchObject({
      kind: 'server',
      key: '11',
      label: 'shop',
      serverKind: 'b',
      match: 'exact',
      field: 'name',
      accountId: 'north',
    })
    expect(hits.filter((h) => h.match === 'prefix' && h.kind === 'domain').map((h) => [h.accountId, h.label])).toEqual([
      ['north', 'shop.example'],
      ['south', 'shop.example'],
      ['north', 'shopping.example'],
    ])
    expect(hits.find((h) => h.kind === 'freedns')).toMatchObject({
      accountId: 'south',
      label: 'shopfree.example',
      match: 'prefix',
    })
    expect(hits.find((h) => h.label === 'myshop.example')).toMatchObject({ kind: 'domain', match: 'substring' })
    expect(hits.find((h) => h.kind === 'svcip')).toMatchObject({
      key: '7',
      label: 'vip-shop',
      detail: 'shop.example',
      match: 'substring',
    })
    // A record found by its value (shop.example.) or its host as a full name (shop.plain.example)
    // is one hit; a value holding the word is a substring match.
    expect(hits.filter((h) => h.kind === 'record').map((h) => [h.label, h.detail, h.field, h.match])).toEqual([
      ['plain.example', 'cname shop shop.example.', 'value', 'prefix'],
      ['shopping.example', 'mx mail.shopping.example. 10', 'value', 'substring'],
    ])
  })

  it('finds the same name in every account that has it', () => {
    const hits = filled()
      .search('shop.example')
      .filter((h) => h.kind === 'domain' && h.match === 'exact')
    expect(hits.map((h) => h.accountId)).toEqual(['north', 'south'])
  })

  it('answers which zones, in which accounts, point at an address, with the record line', () => {
    const hits = filled().search('192.0.2.10')
    expect(hits.filter((h) => h.match === 'exact').map((h) => [h.accountId, h.zone, h.key, h.detail])).toEqual([
      ['north', 'dns', 'plain.example', 'a www 192.0.2.10'],
      ['north', 'dns', 'shopping.example', 'a @ 192.0.2.10'],
      ['south', 'dns', 'other.example', 'a www 192.0.2.10'],
      ['south', 'freedns', 'shopfree.example', 'a @ 192.0.2.10'],
    ])
    // 192.0.2.100 starts with it; the SPF record holds it.
    expect(hits.filter((h) => h.match !== 'exact').map((h) => [h.key, h.detail, h.match])).toEqual([
      ['plain.example', 'a mail 192.0.2.100', 'prefix'],
      ['other.example', 'txt @ v=spf1 ip4:192.0.2.10 -all', 'substring'],
    ])
  })

  it('ranks the records holding a long query exactly, by their start and anywhere the same, whether few zones hold it or more than one index read takes', () => {
    // A long query's zones holding it anywhere are read once, first; when they are few, the exact
    // and prefix matches are found among them, else with reads of their own (search.ts).
    const token = 'site-verification-4242'
    const exactAndPrefix = (store: PortfolioStore) =>
      store
        .search(token, 5)
        .filter((h) => h.match !== 'substring')
        .map((h) => [h.key, h.match])
    for (const holdingAnywhere of [2, 60]) {
      const store = open(join(dir, `anywhere-${holdingAnywhere}.db`))
      for (let i = 0; i < holdingAnywhere; i++)
        store.putZone(
          'acct',
          'dns',
          `any${String(i).padStart(2, '0')}.example`,
          zone([`txt @ "v=check1 ${token} -all"`]),
          T1,
        )
      // Written last: the first zones the index gives are the ones that hold it only anywhere.
      store.putZone('acct', 'dns', 'start.example', zone([`txt www ${token}-b`]), T1)
      store.putZone('acct', 'dns', 'exact-b.example', zone([`txt www ${token}`]), T1)
      store.putZone('acct', 'dns', 'exact-a.example', zone([`txt @ ${token}`]), T1)
      expect(exactAndPrefix(store), `${holdingAnywhere} zones holding it anywhere`).toEqual([
        ['exact-a.example', 'exact'],
        ['exact-b.example', 'exact'],
        ['start.example', 'prefix'],
      ])
      const anywhere = store.search(token, 50).filter((h) => h.match === 'substring')
      expect(anywhere.length).toBe(Math.min(holdingAnywhere, 50 - 3))
      store.close()
    }
  })

  it('finds by short prefixes, ignores case and odd characters, and keeps to the limit', () => {
    const store = filled()
    expect(store.search('SH').map((h) => h.match)).not.toContain('substring')
    expect(store.search('SH').length).toBeGreaterThan(3)
    expect(store.search('  Shop.Example ').filter((h) => h.match === 'exact')).toHaveLength(2)
    expect(store.search('')).toEqual([])
    for (const q of ['"', '%', '_', "' OR 1=1 --", 'a"b', '*', 'NEAR(']) expect(() => store.search(q)).not.toThrow()
    expect(store.search('%')).toEqual([])
    expect(store.search('example', 3)).toHaveLength(3)
  })

  it('follows the lists: a domain gone from the list is gone from the search', () => {
    const store = filled()
    store.putList('north', 'domains.list', {}, [domain('plain.example')], T2)
    expect(store.search('shopping').filter((h) => h.kind === 'domain')).toEqual([])
    expect(
      store
        .search('shop.example')
        .filter((h) => h.kind === 'domain')
        .map((h) => h.accountId),
    ).toEqual(['south'])
  })
})

// ------------------------------------------------------------------ exports

describe('exports', () => {
  it('exports every domain of every account with its settings as CSV, without contacts or transfer codes', () => {
    const store = open()
    const one = accountLists({ seed: 3, domains: 20 })
    const two = accountLists({ seed: 4, domains: 5 })
    putAccount(store, 'one', one, T1)
    putAccount(store, 'two', two, T1)
    const csv = store.exportCsv({ accountNames: { one: 'First, Inc.' } })
    const lines = csv.trimEnd().split('\r\n')
    expect(lines[0]).toBe(CSV_COLUMNS.join(','))
    expect(lines).toHaveLength(1 + 20 + 5)
    const d = one.state.domains[4]!
    const row = lines.find((l) => l.startsWith(`one,"First, Inc.",${d.domainname},`))
    expect(row).toBe(
      [
        'one',
        '"First, Inc."',
        d.domainname,
        d.domainid,
        d.registrar,
        d.expirationdate,
        d.autorenew,
        d.autorenew_all,
        d.autorenew_domain,
        d.transfer_lock,
        d.whoisproxy,
        d.ns.join(' '),
        d.ds.length,
        T1,
      ].join(','),
    )
    expect(lines.filter((l) => l.startsWith('two,,'))).toHaveLength(5)
    for (const x of one.state.domains) {
      expect(csv).not.toContain(x.authcode)
      expect(csv).not.toContain(x.contact.registrant.phone)
    }
  })

  it('quotes a cell the service gave an inner tab, so a spreadsheet keeps it one cell', () => {
    const store = open()
    const lists = accountLists({ seed: 5, domains: 2 })
    const d = lists.domains[0]!
    // A registrar name from the service's answer, with a tab inside (a spreadsheet splits pasted or tab-separated text there).
    d.registrar = 'Evil\tRegistrar'
    putAccount(store, 'one', lists, T1)
    const row = store
      .exportCsv({ accountNames: {} })
      .split('\r\n')
      .find((l) => l.includes(d.domainname))
    expect(row).toContain(',"Evil\tRegistrar",')
  })

  it('takes a setting from its own list when that was read after the domain list', () => {
    const store = open()
    store.putList('acct', 'domains.list', {}, [domain('a.example')], T1)
    store.putList(
      'acct',
      'domains.expiration.list',
      {},
      [{ domainid: 1, domainname: 'a.example', expirationdate: '2030-05-05' }],
      T2,
    )
    expect(store.exportCsv()).toContain(',2030-05-05,')
    store.putList('acct', 'domains.list', {}, [domain('a.example', { expirationdate: '2031-06-06' })], T3)
    expect(store.exportCsv()).toContain(',2031-06-06,')
  })

  it('exports every zone as a BIND file under its account', () => {
    const store = open()
    store.putList(
      'acct',
      'domains.dns.list',
      {},
      [dnsItem('a.example', 'a www 192.0.2.10\nmx mail.a.example. 10\ntxt @ v=spf1 -all', 600)],
      T1,
    )
    store.putZone('acct', 'freedns', 'free.example', { records: 'a @ 192.0.2.20\nweird line here' }, T1)
    store.putZone('other', 'dns', 'b.example', { records: 'aaaa @ 2001:db8::1' }, T1)
    const files = store.exportZones()
    expect(files.map((f) => [f.path, f.notExported])).toEqual([
      ['acct/a.example.zone', 0],
      ['acct/freedns/free.example.zone', 1],
      ['other/b.example.zone', 0],
    ])
    // A file BIND loads: the service's SOA first, marked as not editable (issue 38).
    expect(files[0]!.text).toBe(
      '$ORIGIN a.example.\n$TTL 600\n; The SOA is the service\'s own: not editable here, and an import ignores it.\n@ IN SOA a.example. hostmaster.a.example. ( 1 3600 900 604800 600 )\nwww IN A 192.0.2.10\n@ IN MX 10 mail.a.example.\n@ IN TXT "v=spf1 -all"\n',
    )
    // A line BIND cannot express is kept as a comment an import reads back (issue 38).
    expect(files[1]!.text).toContain('@ IN A 192.0.2.20\n; service line: weird line here\n')
  })
})

describe("main's parsed copy of the lists screens open on", () => {
  const settle = () => new Promise((r) => setImmediate(r))
  it('never answers an old list: a write replaces it, a removed account loses it, and what it answers is what the file holds', async () => {
    const store = open()
    const first = domains(30)
    store.keepList('acct', 'domains.list', {}, first, T1)
    await settle()
    expect(store.readList('acct', 'domains.list', {})?.items).toEqual(first)
    // A refresh: the very next read has it, before the copy is made again.
    const second = first.map((d, i) => (i === 0 ? { ...d, expirationdate: '2030-01-01' } : d))
    store.keepList('acct', 'domains.list', {}, second, T2)
    expect(store.readList('acct', 'domains.list', {})).toMatchObject({ items: second, readAt: T2 })
    await settle()
    expect(store.readList('acct', 'domains.list', {})).toEqual(store.getList('acct', 'domains.list', {}))
    // Warmed ahead of the window at start: the same as reading it.
    const again = open()
    again.warm('acct', 'domains.list', {})
    expect(again.readList('acct', 'domains.list', {})?.items).toEqual(second)
    store.removeAccount('acct')
    expect(store.readList('acct', 'domains.list', {})).toBeUndefined()
  })
})
