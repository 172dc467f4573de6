/**
 * The store's schema, as numbered migrations. The file's `user_version` says how many have
 * run; opening a file runs the missing ones in order, each in its own transaction with the
 * version bump, so a crash half-way leaves the file at the previous version, never between.
 * A new version of the app adds a migration at the end and never edits an old one.
 */
import { z } from 'zod'
import type { Connection } from './database'
import { SEARCH_KINDS } from '@shared/portfolio'
import { TRIGRAM_INDEXES, ZONE_FTS, ftsTableOf, indexEveryZone } from './search-index'
import { keepWhoisFlags } from './whois-flags'

/** Written into the file's header by migration 1: a SQLite file without it is not ours. */
export const APPLICATION_ID = 0x48415046 // "HAPF": Hosting Admin portfolio

/**
 * A zone's records text as the service answered it: the columns a kept zone (migration 1) and a snapshot of one
 * (migration 2) have in common, so that a snapshot is the zone as it was. Part of those two migrations: never edited.
 */
const ZONE_TEXT_COLUMNS = `id INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('dns', 'freedns')),
      domain TEXT NOT NULL,
      records TEXT NOT NULL,
      ttl INTEGER,
      ns_type TEXT,`

const migration1 = (): string => {
  const fts = SEARCH_KINDS.map((_, kind) => {
    const t = ftsTableOf(kind)
    // Each index's content is its kind's rows (a view), so FTS5's own integrity check can
    // compare the two. Rows go in from SearchWriter (search-index.ts), in bulk; they go out
    // here, whoever deletes them.
    return `
      CREATE VIEW ${t}_rows AS SELECT id, text FROM search WHERE kind = ${kind};
      CREATE VIRTUAL TABLE ${t} USING fts5(text, content='${t}_rows', content_rowid='id', tokenize='trigram');
      CREATE TRIGGER search_ad_${kind} AFTER DELETE ON search WHEN old.kind = ${kind} BEGIN
        INSERT INTO ${t}(${t}, rowid, text) VALUES ('delete', old.id, old.text);
      END;`
  }).join('\n')
  return `
    PRAGMA application_id = ${APPLICATION_ID};

    -- One row per list read: which list, when, and whether every page came.
    CREATE TABLE lists (
      id INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL,
      list TEXT NOT NULL,
      params_key TEXT NOT NULL,
      read_at TEXT NOT NULL,
      complete INTEGER NOT NULL,
      UNIQUE (account_id, list, params_key)
    );

    -- The items of each list, one JSON row per item, keyed by the item's identity. Their order
    -- (pos) is sorted on reading: 10,000 numbers sort faster than an index on them is kept.
    CREATE TABLE list_items (
      id INTEGER PRIMARY KEY,
      list_id INTEGER NOT NULL,
      item_key TEXT NOT NULL,
      pos INTEGER NOT NULL,
      json TEXT NOT NULL,
      UNIQUE (list_id, item_key)
    );

    -- DNS and free DNS zones: the records text as the service answered it.
    CREATE TABLE zones (
      ${ZONE_TEXT_COLUMNS}
      record_count INTEGER NOT NULL,
      read_at TEXT NOT NULL,
      UNIQUE (account_id, kind, domain)
    );

    -- What the command palette searches: one row per name, record host or record value,
    -- replaced with the list item (item_id) or the zone (zone_id) it came from.
    CREATE TABLE search (
      id INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL,
      item_id INTEGER,
      zone_id INTEGER,
      kind INTEGER NOT NULL,
      field INTEGER NOT NULL,
      text TEXT NOT NULL,
      key TEXT NOT NULL,
      label TEXT NOT NULL,
      detail TEXT,
      scope TEXT
    );
    -- Exact and prefix matches, per kind, in order.
    CREATE INDEX search_text ON search (kind, text);
    CREATE INDEX search_item ON search (item_id) WHERE item_id IS NOT NULL;
    CREATE INDEX search_zone ON search (zone_id) WHERE zone_id IS NOT NULL;
    -- Substring matches: one trigram index per kind, over the search rows' text. They must
    -- hold exactly the rows' text, so a row is replaced, never updated.
    CREATE TRIGGER search_no_update BEFORE UPDATE ON search BEGIN
      SELECT RAISE(ABORT, 'search rows are replaced, never updated');
    END;
    ${fts}
  `
}

/**
 * History, snapshots, settings and reminders (issue 17). History rows are what happened to one
 * subject (a domain, a free DNS zone, a server) of one account: a write made from this app, or a
 * change a refresh found and this app did not make ("outside"). JSON columns never hold a key,
 * a transfer code or a DDNS password (they go through storedJson).
 */
function migration2(): string {
  return `
    CREATE TABLE history (
      id INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL,
      subject_kind TEXT NOT NULL CHECK (subject_kind IN ('domain', 'freedns', 'server', 'svcip', 'account')),
      subject TEXT NOT NULL,
      origin TEXT NOT NULL CHECK (origin IN ('app', 'outside')),
      -- What changed: dns, nameservers, whois, transferlock, autorenew, expiration, or 'write'
      aspect TEXT NOT NULL,
      operation TEXT,
      purpose TEXT,
      params TEXT,
      outcome TEXT,
      request_id TEXT,
      job_id TEXT,
      item_index INTEGER,
      before TEXT,
      after TEXT,
      at TEXT NOT NULL,
      -- A change from outside is shown until the user has looked at it.
      seen INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX history_subject ON history (account_id, subject_kind, subject, at);
    CREATE INDEX history_account ON history (account_id, at);
    CREATE INDEX history_job ON history (job_id, item_index) WHERE job_id IS NOT NULL;
    CREATE INDEX history_unseen ON history (account_id) WHERE seen = 0;
    -- What the retention deletes, by age.
    CREATE INDEX history_at ON history (at);

    -- A zone as it was before a change: before each save from this app, and before a change a
    -- refresh found. Restoring one goes through the normal plan and guarded save.
    CREATE TABLE zone_snapshots (
      ${ZONE_TEXT_COLUMNS}
      reason TEXT NOT NULL CHECK (reason IN ('before-save', 'before-outside-change')),
      history_id INTEGER,
      at TEXT NOT NULL
    );
    CREATE INDEX zone_snapshots_zone ON zone_snapshots (account_id, kind, domain, at);
    -- A history entry's snapshot, looked up for each entry listed.
    CREATE INDEX zone_snapshots_history ON zone_snapshots (history_id) WHERE history_id IS NOT NULL;
    CREATE INDEX zone_snapshots_at ON zone_snapshots (at);

    -- Settings main needs without a window: history kept for, reminder thresholds.
    CREATE TABLE store_settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );

    -- Each reminder threshold once per item (and per expiry date: a renewal starts them again).
    CREATE TABLE reminders_sent (
      account_id TEXT NOT NULL,
      item_kind TEXT NOT NULL,
      item_key TEXT NOT NULL,
      expires TEXT NOT NULL,
      threshold INTEGER NOT NULL,
      at TEXT NOT NULL,
      PRIMARY KEY (account_id, item_kind, item_key, expires, threshold)
    );
  `
}

/**
 * A zone's records in the search index as one row per zone instead of one per record (see
 * search-index.ts): the record rows and their trigram index go, and every zone already kept is
 * indexed again from its records, in the same transaction.
 */
function migration3(conn: Connection): void {
  const record = SEARCH_KINDS.indexOf('record')
  const old = ftsTableOf(record)
  conn.exec(`
    DROP TRIGGER search_ad_${record};
    DROP TABLE ${old};
    DROP VIEW ${old}_rows;
    DELETE FROM search WHERE kind = ${record};
    DROP INDEX search_zone;
    CREATE TABLE zone_search (
      zone_id INTEGER PRIMARY KEY,
      text TEXT NOT NULL
    );
    CREATE VIRTUAL TABLE ${ZONE_FTS} USING fts5(text, content='zone_search', content_rowid='zone_id', tokenize='trigram');
    CREATE TRIGGER zone_search_ad AFTER DELETE ON zone_search BEGIN
      INSERT INTO ${ZONE_FTS}(${ZONE_FTS}, rowid, text) VALUES ('delete', old.zone_id, old.text);
    END;
    CREATE TRIGGER zone_search_no_update BEFORE UPDATE ON zone_search BEGIN
      SELECT RAISE(ABORT, 'search rows are replaced, never updated');
    END;
  `)
  indexEveryZone(conn)
}

/**
 * Team mode (issue 37 point 4): a history row of a write says which member made it on which
 * workstation; empty for a row of single-workstation mode and for a change from outside.
 */
function migration4(): string {
  return `
    ALTER TABLE history ADD COLUMN member TEXT;
    ALTER TABLE history ADD COLUMN workstation TEXT;
  `
}

/**
 * A write's history row is kept once per job item (issue 49 point 5): the rows its store could not
 * take while its worker was down are offered again after it comes back (write-history.ts
 * writeOwed), and one a dying worker had already written must not be written twice. A file that
 * holds the same item twice keeps its first row (a zone snapshot linked to another goes to it).
 */
function migration5(): string {
  const later = `job_id IS NOT NULL AND item_index IS NOT NULL
      AND id > (SELECT min(first.id) FROM history first WHERE first.job_id = history.job_id AND first.item_index = history.item_index)`
  return `
    UPDATE zone_snapshots SET history_id = (
        SELECT min(first.id) FROM history first JOIN history later ON first.job_id = later.job_id AND first.item_index = later.item_index
         WHERE later.id = zone_snapshots.history_id)
      WHERE history_id IN (SELECT id FROM history WHERE ${later});
    DELETE FROM history WHERE ${later};
    DROP INDEX history_job;
    CREATE UNIQUE INDEX history_job_item ON history (job_id, item_index) WHERE job_id IS NOT NULL;
  `
}

/**
 * A zone's last served-against-saved comparison (issue 53 point 1): its outcome, findings and
 * time, so the DNS list, the zone and Health show it after a reload. One row per zone; history
 * keeps only the real differences that appeared or cleared.
 */
function migration6(): string {
  return `
    CREATE TABLE served_results (
      account_id TEXT NOT NULL,
      domain TEXT NOT NULL,
      outcome TEXT NOT NULL CHECK (outcome IN ('same', 'differs', 'delegated', 'unknown')),
      findings TEXT NOT NULL,
      at TEXT NOT NULL,
      PRIMARY KEY (account_id, domain)
    );
  `
}

/** FTS5's pending changes held in memory before they are written as a segment: 16 MB instead of its 1 MB. */
export const TRIGRAM_HASH_BYTES = 16 * 1024 * 1024

/**
 * The trigram indexes take a list's entries in larger pieces (issue 54 point 3). FTS5 writes its
 * pending changes as a new segment each time they reach this size and merges segments of a level
 * into one of the next (automerge): at 1 MB, indexing the 100,000 zones of one account's DNS list
 * cost fifteen times what the 10,000 did (a profile of the flush: 2.2 s against 0.15 s), at 16 MB
 * twelve times, and half the time. The size is kept in each index's config table, read by every
 * connection.
 */
function migration7(): string {
  return TRIGRAM_INDEXES.map((t) => `INSERT INTO ${t} (${t}, rank) VALUES ('hashsize', ${TRIGRAM_HASH_BYTES});`).join(
    '\n',
  )
}

/**
 * The WHOIS list's privacy flags kept as each row is written (whois-flags.ts): the table whois_flags, the triggers on
 * list_items that keep it, and the flags of the rows already stored. They are made by keepWhoisFlags, here and again
 * at any later opening of a file whose table or triggers are not that version's: what they hold is made from the
 * rows, by the check of the version that opens the file, never kept from an older one.
 */
function migration8(conn: Connection): void {
  keepWhoisFlags(conn)
}
/** The first version whose file keeps whois_flags. */
const WHOIS_FLAGS_SINCE = 8

const sql = (text: () => string) => (conn: Connection) => conn.exec(text())
const MIGRATIONS: readonly ((conn: Connection) => void)[] = [
  sql(migration1),
  sql(migration2),
  migration3,
  sql(migration4),
  sql(migration5),
  sql(migration6),
  sql(migration7),
  migration8,
]
export const SCHEMA_VERSION = MIGRATIONS.length

const versionRow = z.object({ user_version: z.number().int() })
const appIdRow = z.object({ application_id: z.number().int() })
const countRow = z.object({ n: z.number().int() })

export function schemaVersion(conn: Connection): number {
  return conn.get(versionRow, 'PRAGMA user_version')?.user_version ?? 0
}

/**
 * Whether the file is this store's (or empty, so it can become one): a SQLite file that some
 * other program made is left to it, not migrated into.
 */
export function isOurs(conn: Connection): boolean {
  const appId = conn.get(appIdRow, 'PRAGMA application_id')?.application_id ?? 0
  if (appId === APPLICATION_ID) return true
  if (appId !== 0) return false
  return schemaVersion(conn) === 0 && (conn.get(countRow, 'SELECT count(*) AS n FROM sqlite_schema')?.n ?? 0) === 0
}

/**
 * Runs the migrations the file has not had yet (up to `version`: a test's file of an older version), then makes the
 * WHOIS flags this version's when the file's were made by another check (keepWhoisFlags).
 */
export function migrate(conn: Connection, version = MIGRATIONS.length): void {
  for (let v = schemaVersion(conn); v < Math.min(version, MIGRATIONS.length); v++) {
    const up = MIGRATIONS[v]
    if (!up) break
    conn.write(() => {
      up(conn)
      conn.exec(`PRAGMA user_version = ${v + 1}`)
    })
  }
  if (schemaVersion(conn) >= WHOIS_FLAGS_SINCE) keepWhoisFlags(conn)
}
