/**
 * The portfolio store's parts on their own: what an item looks like when written, what a zone
 * gives the search index, the CSV cell, the list specs against the endpoint table, and the
 * search index staying exactly in step with its rows whatever order lists change in.
 */
import fc from 'fast-check'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { openConnection, type Connection } from '../../src/main/store/database'
import { csvCell } from '../../src/main/store/export'
import { getList, putList } from '../../src/main/store/inventory'
import { LIST_SPECS, STORED_LIST_NAMES, listIdentity, storedJson } from '../../src/main/store/lists'
import { migrate } from '../../src/main/store/migrations'
import { removeAccount } from '../../src/main/store/remove-account'
import { search } from '../../src/main/store/search'
import { SearchWriter, TRIGRAM_INDEXES, ZONE_FTS, recordEntries, searchText } from '../../src/main/store/search-index'
import { putZone } from '../../src/main/store/zones'
import { PAGED_ENDPOINT_NAMES, endpoints } from '@shared/endpoints/table'

describe('what is written', () => {
  it('leaves out transfer codes and passwords at any depth, and writes members in one order', () => {
    const a = storedJson({
      domainname: 'a.example',
      authcode: 'SECRET1',
      nested: [{ password: 'pw', keep: 1 }],
      transfer_lock: 1,
    })
    const b = storedJson({
      transfer_lock: 1,
      nested: [{ keep: 1, password: 'other' }],
      authcode: 'SECRET2',
      domainname: 'a.example',
    })
    expect(a).toBe(b)
    expect(a).toBe('{"domainname":"a.example","nested":[{"keep":1}],"transfer_lock":1}')
  })
})

describe('the lists the store keeps', () => {
  it('are every paged list but the API log, each read back with its endpoint’s own item schema', () => {
    expect([...STORED_LIST_NAMES].sort()).toEqual(PAGED_ENDPOINT_NAMES.filter((n) => n !== 'logs.list').sort())
    for (const name of STORED_LIST_NAMES) expect(LIST_SPECS[name].item).toBe(endpoints[name].result.element)
  })

  it('read a domain list back with the schema of what was written: every item the service could send comes back as the item schema gave it, and a damaged row is left out', () => {
    const conn = openConnection(':memory:')
    migrate(conn)
    const loose = fc.record(
      {
        domainid: fc.oneof(fc.integer({ min: 1, max: 9_999_999 }), fc.integer({ min: 1, max: 9_999_999 }).map(String)),
        domainname: fc.domain(),
        registrar: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
        expirationdate: fc.oneof(fc.constant('2027-01-31'), fc.constant(''), fc.constant(null)),
        autorenew: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom('0', '1', '10')),
        autorenew_all: fc.integer({ min: 0, max: 10 }),
        autorenew_domain: fc.integer({ min: 0, max: 10 }),
      },
      { requiredKeys: ['domainid', 'domainname'] },
    )
    fc.assert(
      fc.property(fc.uniqueArray(loose, { selector: (d) => d.domainname, maxLength: 20 }), (sent) => {
        const items = sent.map((d) => endpoints['domains.list'].result.element.parse(d))
        putList(conn, 'a', 'domains.list', {}, items, '2026-11-25T00:00:00.000Z', true)
        const read = getList(conn, 'a', 'domains.list', {}, () => undefined)
        expect(read?.items).toEqual(items)
        expect(read?.skipped).toBe(0)
      }),
      { numRuns: 60 },
    )
    // A row whose text no longer has the written shape is not trusted.
    const two = [
      { domainid: 1, domainname: 'a.example' },
      { domainid: 2, domainname: 'b.example' },
    ].map((d) => endpoints['domains.list'].result.element.parse(d))
    putList(conn, 'a', 'domains.list', {}, two, '2026-11-25T00:00:00.000Z', true)
    conn.run(`UPDATE list_items SET json = json_set(json, '$.domainid', '1') WHERE item_key = 'a.example'`)
    const problems: unknown[] = []
    const read = getList(conn, 'a', 'domains.list', {}, (p) => problems.push(p))
    expect(read?.items.map((d) => d.domainname)).toEqual(['b.example'])
    expect(read?.skipped).toBe(1)
    expect(problems).toHaveLength(1)
    conn.close()
  })

  it('tell lists apart by server kind or domain, never by order or paging', () => {
    expect(listIdentity('domains.list', { order: 'ASC' }).key).toBe('')
    expect(listIdentity('servers.list', { kind: 'b' }).key).toBe('{"kind":"b"}')
    expect(listIdentity('domains.privatenameserver.list', { domain: 12 }).key).toBe('{"domain":"12"}')
    expect(listIdentity('domains.transfer.listForDomain', { domain: 'a.example', order: 'DESC' }).key).toBe(
      '{"domain":"a.example"}',
    )
  })
})

describe('a zone in the search index', () => {
  it('gives each record’s value, and its host as a full name unless it is the domain itself', () => {
    const text = [
      'a @ 192.0.2.1',
      'a www 192.0.2.2',
      'mx mail.a.example. 10',
      'cname docs www.a.example.',
      'a abs.a.example. 192.0.2.3',
      '# comment',
      'weird',
      '',
    ].join('\n')
    expect(recordEntries('dns', 'a.example', text).map((e) => [e.field, e.text, e.detail])).toEqual([
      ['value', '192.0.2.1', 'a @ 192.0.2.1'],
      ['host', 'www.a.example', 'a www 192.0.2.2'],
      ['value', '192.0.2.2', 'a www 192.0.2.2'],
      ['value', 'mail.a.example. 10', 'mx mail.a.example. 10'],
      ['host', 'docs.a.example', 'cname docs www.a.example.'],
      ['value', 'www.a.example.', 'cname docs www.a.example.'],
      ['host', 'abs.a.example', 'a abs.a.example. 192.0.2.3'],
      ['value', '192.0.2.3', 'a abs.a.example. 192.0.2.3'],
    ])
    expect(
      recordEntries('freedns', 'a.example', 'a www 192.0.2.2').every(
        (e) => e.kind === 'record' && e.scope === 'freedns' && e.key === 'a.example',
      ),
    ).toBe(true)
  })
})

describe('CSV cells', () => {
  it('quote what needs it and never start with a formula', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell(12)).toBe('12')
    expect(csvCell(undefined)).toBe('')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"')
    expect(csvCell('-1')).toBe("'-1")
    expect(csvCell('@SUM')).toBe("'@SUM")
    // A leading space or tab hides a formula from a check of the first character; a semicolon splits a cell where it is the list separator.
    expect(csvCell(' =1+1')).toBe("' =1+1")
    // …and a tab anywhere in a cell is quoted too: a spreadsheet splits tab-separated text there.
    expect(csvCell('\t=1+1')).toBe(`"'\t=1+1"`)
    expect(csvCell('a\tb')).toBe('"a\tb"')
    expect(csvCell('a;b')).toBe('"a;b"')
  })
})

describe('the search index', () => {
  function memory(): Connection {
    const conn = openConnection(':memory:')
    migrate(conn)
    return conn
  }
  /** FTS5's own check that each trigram index holds exactly its rows' text. */
  function indexesMatch(conn: Connection): void {
    for (const t of TRIGRAM_INDEXES) conn.run(`INSERT INTO ${t} (${t}, rank) VALUES ('integrity-check', 1)`)
  }
  const names = ['alpha.example', 'beta.example', 'gamma.example', 'delta.example', 'alphabet.example']
  const item = (name: string, v: number) => ({
    domainid: 1,
    domainname: name,
    registrar: `r${v}`,
    expirationdate: '',
    autorenew: 0,
    autorenew_all: 0,
    autorenew_domain: 0,
  })
  const dns = (name: string, v: number) => ({
    domainid: 1,
    domainname: name,
    ns_type: 'svc1',
    records: `a www 192.0.2.${v}\na host${v} 198.51.100.${v}`,
    ttl: 3600,
  })
  const free = (name: string, v: number) => ({ domainid: 2, domainname: name, records: `a @ 192.0.2.${v}`, ttl: 3600 })
  const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString()

  it('writes additions and removals in the order they were asked for, whatever it is', () => {
    const conn = memory()
    const entries = recordEntries('dns', 'a.example', 'a www 192.0.2.1\na mail 192.0.2.2').map((e) =>
      searchText(e.text),
    )
    const names = [
      {
        kind: 'domain' as const,
        field: 'name' as const,
        text: 'www.a.example',
        key: 'www.a.example',
        label: 'www.a.example',
      },
    ]
    conn.write(() => {
      const w = new SearchWriter(conn)
      w.addZone(1, entries)
      w.remove({ zone: 1 })
      w.addZone(2, entries)
      w.remove({ zone: 3 })
      w.addZone(3, entries)
      w.add('a', { item: 1 }, names)
      w.remove({ item: 1 })
      w.add('a', { item: 2 }, names)
      w.flush()
    })
    indexesMatch(conn)
    const n = z.object({ n: z.number() })
    expect(conn.get(n, 'SELECT count(*) AS n FROM zone_search')?.n).toBe(2)
    expect(conn.get(n, `SELECT count(*) AS n FROM ${ZONE_FTS} WHERE ${ZONE_FTS} MATCH '"ww.a.exa"'`)?.n).toBe(2)
    expect(conn.get(n, 'SELECT count(*) AS n FROM search')?.n).toBe(1)
    conn.close()
  })

  it('stays in step with its rows through any sequence of list and zone changes', () => {
    const op = fc.oneof(
      fc.record({
        t: fc.constant('domains' as const),
        account: fc.constantFrom('a', 'b'),
        pick: fc.subarray(names),
        v: fc.nat(3),
      }),
      fc.record({
        t: fc.constant('dns' as const),
        account: fc.constantFrom('a', 'b'),
        pick: fc.subarray(names),
        v: fc.nat(3),
      }),
      fc.record({
        t: fc.constant('zone' as const),
        account: fc.constantFrom('a', 'b'),
        pick: fc.subarray(names, { minLength: 1, maxLength: 1 }),
        v: fc.nat(3),
      }),
      fc.record({
        t: fc.constant('free' as const),
        account: fc.constantFrom('a', 'b'),
        pick: fc.subarray(names),
        v: fc.nat(3),
      }),
      fc.record({
        t: fc.constant('freeZone' as const),
        account: fc.constantFrom('a', 'b'),
        pick: fc.subarray(names, { minLength: 1, maxLength: 1 }),
        v: fc.nat(3),
      }),
      fc.record({
        t: fc.constant('remove' as const),
        account: fc.constantFrom('a', 'b'),
        pick: fc.constant([]),
        v: fc.constant(0),
      }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 14 }), (ops) => {
        const conn = memory()
        try {
          ops.forEach((o, i) => {
            if (o.t === 'domains')
              putList(
                conn,
                o.account,
                'domains.list',
                {},
                o.pick.map((n) => item(n, o.v)),
                at(i),
                true,
              )
            if (o.t === 'dns')
              putList(
                conn,
                o.account,
                'domains.dns.list',
                {},
                o.pick.map((n) => dns(n, o.v)),
                at(i),
                true,
              )
            if (o.t === 'zone')
              putZone(conn, o.account, 'dns', o.pick[0]!, { records: `a mail 203.0.113.${o.v}` }, at(i))
            if (o.t === 'free')
              putList(
                conn,
                o.account,
                'freedns.list',
                {},
                o.pick.map((n) => free(n, o.v)),
                at(i),
                true,
              )
            if (o.t === 'freeZone')
              putZone(
                conn,
                o.account,
                'freedns',
                o.pick[0]!,
                { records: `txt @ v=spf1 ip4:192.0.2.${o.v} -all` },
                at(i),
              )
            if (o.t === 'remove') removeAccount(conn, o.account)
            indexesMatch(conn)
          })
          // Every zone has exactly its records' entries, and no entry outlives its row.
          const n = z.object({ n: z.number() })
          const zones = conn.all(
            z.object({
              id: z.number(),
              account_id: z.string(),
              kind: z.enum(['dns', 'freedns']),
              domain: z.string(),
              records: z.string(),
              text: z.string().nullable(),
            }),
            'SELECT z.id, z.account_id, z.kind, z.domain, z.records, s.text FROM zones z LEFT JOIN zone_search s ON s.zone_id = z.id',
          )
          for (const zn of zones) {
            const texts = recordEntries(zn.kind, zn.domain, zn.records).map((e) => searchText(e.text))
            expect(zn.text ?? '').toBe(texts.length === 0 ? '' : `\n${texts.join('\n')}\n`)
          }
          expect(
            conn.get(n, 'SELECT count(*) AS n FROM zone_search WHERE zone_id NOT IN (SELECT id FROM zones)')?.n,
          ).toBe(0)
          expect(
            conn.get(
              n,
              'SELECT count(*) AS n FROM search WHERE item_id IS NOT NULL AND item_id NOT IN (SELECT id FROM list_items)',
            )?.n,
          ).toBe(0)
          // What search finds of a record value is every zone that holds it, and only those.
          for (const v of ['192.0.2.1', '198.51.100.2', '203.0.113.3', 'v=spf1 ip4:192.0.2.0 -all']) {
            const holding = zones.filter((zn) =>
              recordEntries(zn.kind, zn.domain, zn.records).some((e) => e.field === 'value' && e.text === v),
            )
            const found = search(conn, v, 500).filter(
              (h) => h.kind === 'record' && h.match === 'exact' && h.field === 'value',
            )
            expect(found.map((h) => `${h.accountId} ${h.zone} ${h.key}`).sort()).toEqual(
              holding.map((zn) => `${zn.account_id} ${zn.kind} ${zn.domain}`).sort(),
            )
          }
          // And what search finds is what the lists hold.
          for (const account of ['a', 'b']) {
            const listed = getList(conn, account, 'domains.list', {}, () => {})?.items.map((d) => d.domainname) ?? []
            const found = search(conn, '.example', 100)
              .filter((h) => h.accountId === account && h.kind === 'domain')
              .map((h) => h.label)
            expect(found.sort()).toEqual([...listed].sort())
          }
        } finally {
          conn.close()
        }
      }),
      { numRuns: 60 },
    )
  })
})
