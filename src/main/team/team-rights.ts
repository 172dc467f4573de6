/**
 * Rights the database enforces (issue 50 point 1): a role per member, in the team's group role;
 * members hold no INSERT, UPDATE or DELETE on any team table, only SELECT, and change the team's
 * rows through these functions alone. Each is SECURITY DEFINER (it runs with the owner's rights)
 * with a pinned search_path, and takes the member from the login (`session_user`), never from an
 * argument, and enforces the rules the app follows:
 *
 * - a lease is taken in the caller's own name, renewed, checked and let go only by its holder; an
 *   expired lease is taken over with a new fencing number (a new row);
 * - an unknown outcome is settled only with the evidence the app records (the request id and the
 *   log entry that show it), and the settling member is recorded; or sent over knowingly, which
 *   leaves it "unsure" for every later send;
 * - the journal and history are appended, never updated or deleted, each row with the member who
 *   wrote it; a record on a colleague's job only settles one of its items from the log, and no
 *   record moves an item back from done or failed;
 * - a job is created and ended by its member only.
 *
 * The team's owner (the login that runs `team init` and `team migrate`) owns the tables and runs
 * these migrations, adds and removes members. A login that is not a member role (the owner's own,
 * shared by every workstation: "shared-login mode") still goes through the functions, which then
 * take the member from the name each call hands in (`p_as`, ignored for a member's login): the
 * app's rules hold, but that login may change any table, so nothing holds against its own SQL.
 *
 * The statements are one migration (schema.ts MIGRATIONS, version 4), each function replaced whole
 * (CREATE OR REPLACE) by a later version that changes it.
 */

/** Moved (preconditions): a send of the target that ended done after the mark, or from the same basis; else one settled without evidence. */
const MOVED = (
  a: string,
  o: string,
  t: string,
  since: string,
  basis: string,
) => `SELECT l.member, l.workstation, l.job_id, l.idx, l.ended_at, l.outcome FROM team_leases l
  WHERE l.account = ${a} AND l.operation = ${o} AND l.target = ${t} AND l.outcome IN ('done', 'unsure')
    AND (l.end_seq > ${since} OR (l.outcome = 'done' AND ${basis} IS NOT NULL AND l.basis = ${basis}))
  ORDER BY (l.outcome = 'done') DESC, l.end_seq DESC LIMIT 1`

/** Expired leases of one target made what they mean: never checked, free; checked, unknown for everyone. */
const EXPIRE = (
  a: string,
  o: string,
  t: string,
) => `UPDATE team_leases SET state = CASE WHEN checked_at IS NULL THEN 'free' ELSE 'unknown' END,
    ended_at = CASE WHEN checked_at IS NULL THEN now() ELSE NULL END
  WHERE account = ${a} AND operation = ${o} AND target = ${t} AND state = 'sending' AND expires_at <= now()`

/** team_send_begin's insert that takes a free target for the caller (tried again once expired leases are ended). */
const TAKE_LEASE = `INSERT INTO team_leases (account, operation, target, member, workstation, job_id, idx, state, expires_at, basis)
         VALUES (p_account, p_operation, p_target, me, p_workstation, p_job, p_idx, 'sending', now() + p_ttl_ms * interval '1 millisecond', p_basis)
         ON CONFLICT (account, operation, target) WHERE state IN ('sending', 'unknown') DO NOTHING
         RETURNING team_leases.fence INTO f`
const DEFINER = `LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp`

/** The team's functions, by name and argument types (for the grants). */
const TEAM_FUNCTIONS = [
  'team_member(text)',
  'team_is_member_login()',
  'team_register(text, uuid, integer, text)',
  'team_heartbeat(text, uuid, bigint[], bigint, text)',
  'team_claim(text, text, text, text, text, integer, bigint, text, bigint, boolean, boolean, text)',
  'team_begin_send(bigint, bigint, uuid, text, integer, text, jsonb, text, bigint, text, text)',
  'team_release(bigint, boolean, text)',
  'team_still_held(bigint, bigint, text)',
  'team_keep_unknown(bigint, text)',
  'team_end(bigint, text, uuid, text, integer, text, jsonb, text, text, text, text, jsonb, text)',
  'team_settle(text, text, text, text, text, jsonb, text)',
  'team_append(uuid, text, text, jsonb, text, text, uuid, integer[], text[], text[], integer, text, text)',
  'team_history_add(text, text, jsonb, text, boolean, text)',
  'team_share_account(text, text, text, text, text, text, text)',
  'team_link_key(text, text, text, text)',
  'team_add_proof(text, text)',
  'team_reminder_due(text, timestamptz, text)',
  'team_reminder_handle(text, text, text, timestamptz, text)',
  'team_record_drift(text, text, jsonb, text)',
  'team_archive_settled()',
  'team_claim_notices(jsonb, text, text)',
] as const

export const RIGHTS_MIGRATION: readonly string[] = [
  // Who owns the team, and the group every member's role is in (roles are the cluster's: named after the database).
  `ALTER TABLE team_schema ADD COLUMN IF NOT EXISTS owner_role text, ADD COLUMN IF NOT EXISTS group_role text`,
  `UPDATE team_schema SET owner_role = coalesce(owner_role, current_user::text), group_role = coalesce(group_role, current_database() || '_members') WHERE id = 1`,
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = (SELECT group_role FROM team_schema WHERE id = 1)) THEN
       EXECUTE format('CREATE ROLE %I NOLOGIN', (SELECT group_role FROM team_schema WHERE id = 1));
     END IF;
   END $$`,
  `ALTER TABLE team_leases ADD COLUMN IF NOT EXISTS settled_by text, ADD COLUMN IF NOT EXISTS settled_evidence jsonb`,
  // Upkeep (point 7): settled jobs past the team's retention move to these, which history and audit still read.
  `CREATE TABLE IF NOT EXISTS team_settings (
     id smallint PRIMARY KEY CHECK (id = 1),
     retention_days integer NOT NULL DEFAULT 90 CHECK (retention_days >= 1),
     archived_at timestamptz)`,
  `INSERT INTO team_settings (id) VALUES (1) ON CONFLICT (id) DO NOTHING`,
  `CREATE TABLE IF NOT EXISTS team_jobs_archive (LIKE team_jobs INCLUDING DEFAULTS, archived_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS team_journal_archive (LIKE team_journal INCLUDING DEFAULTS)`,
  `CREATE INDEX IF NOT EXISTS team_journal_archive_job ON team_journal_archive (job_id, seq)`,
  `CREATE INDEX IF NOT EXISTS team_journal_job ON team_journal (job_id, seq)`,

  `CREATE OR REPLACE FUNCTION team_is_member_login() RETURNS boolean ${DEFINER} STABLE AS $$
   BEGIN
     RETURN coalesce((SELECT NOT r.rolsuper AND r.rolname::text <> s.owner_role AND pg_has_role(r.oid, s.group_role, 'MEMBER')
       FROM pg_roles r, team_schema s WHERE r.rolname = session_user AND s.id = 1), false);
   END $$`,
  // A member's login is who they are (any name handed in is ignored); the owner's shared login says who each call is for.
  `CREATE OR REPLACE FUNCTION team_member(p_as text) RETURNS text ${DEFINER} STABLE AS $$
   BEGIN
     IF team_is_member_login() THEN RETURN session_user::text; END IF;
     RETURN coalesce(nullif(p_as, ''), session_user::text);
   END $$`,

  `CREATE OR REPLACE FUNCTION team_register(p_workstation text, p_process uuid, p_pid integer, p_as text) RETURNS text ${DEFINER} AS $$
   DECLARE me text := team_member(p_as);
   BEGIN
     INSERT INTO team_members (name) VALUES (me) ON CONFLICT (name) DO NOTHING;
     INSERT INTO team_workstations (name, member) VALUES (p_workstation, me) ON CONFLICT (name) DO UPDATE SET member = me, last_seen = now();
     IF p_process IS NOT NULL THEN
       INSERT INTO team_processes (id, workstation, pid) VALUES (p_process, p_workstation, p_pid) ON CONFLICT (id) DO UPDATE SET last_seen = now();
     END IF;
     RETURN me;
   END $$`,

  `CREATE OR REPLACE FUNCTION team_heartbeat(p_workstation text, p_process uuid, p_fences bigint[], p_ttl_ms bigint, p_as text) RETURNS void ${DEFINER} AS $$
   DECLARE me text := team_member(p_as);
   BEGIN
     UPDATE team_leases SET expires_at = now() + p_ttl_ms * interval '1 millisecond'
       WHERE fence = ANY(p_fences) AND member = me AND state = 'sending' AND expires_at > now();
     UPDATE team_workstations SET last_seen = now() WHERE name = p_workstation AND member = me;
     UPDATE team_processes SET last_seen = now() WHERE id = p_process AND workstation = p_workstation;
   END $$`,

  // A target taken for one send, in the caller's name; or who holds it. With a mark, what moved
  // the precondition since (read in the same call: beginSend checks it again, committed).
  `CREATE OR REPLACE FUNCTION team_claim(p_account text, p_operation text, p_target text, p_workstation text, p_job text, p_idx integer,
       p_ttl_ms bigint, p_basis text, p_since bigint, p_over_unknown boolean, p_relaxed boolean, p_as text)
     RETURNS TABLE (fence bigint, h_member text, h_workstation text, h_job text, h_idx integer, h_state text, h_since timestamptz,
       m_member text, m_workstation text, m_job text, m_idx integer, m_at timestamptz, m_outcome text) ${DEFINER} AS $$
   #variable_conflict use_column
   DECLARE me text := team_member(p_as); f bigint;
   BEGIN
     IF p_relaxed THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
     IF EXISTS (SELECT 1 FROM team_jobs j WHERE j.id = p_job AND j.member <> me) THEN
       RAISE EXCEPTION 'team: job % is not %''s', p_job, me USING ERRCODE = '42501';
     END IF;
     -- The usual case first: the target is free and the insert takes it. Else expired leases are made
     -- what they mean (and an unknown one sent over knowingly), and the insert is tried once more.
     IF NOT p_over_unknown THEN
       ${TAKE_LEASE};
     END IF;
     IF f IS NULL THEN
       ${EXPIRE('p_account', 'p_operation', 'p_target')};
       IF p_over_unknown THEN
         UPDATE team_leases l SET state = 'free', ended_at = now(), outcome = 'unsure', end_seq = nextval('team_end_seq'), settled_by = me
           WHERE l.account = p_account AND l.operation = p_operation AND l.target = p_target AND l.state = 'unknown';
       END IF;
       ${TAKE_LEASE};
     END IF;
     IF f IS NULL THEN
       RETURN QUERY SELECT NULL::bigint, l.member, l.workstation, l.job_id, l.idx,
           CASE WHEN l.state = 'sending' AND l.expires_at <= now() THEN 'unknown' ELSE l.state END, l.since,
           NULL::text, NULL::text, NULL::text, NULL::integer, NULL::timestamptz, NULL::text
         FROM team_leases l WHERE l.account = p_account AND l.operation = p_operation AND l.target = p_target AND l.state IN ('sending', 'unknown') LIMIT 1;
       RETURN;
     END IF;
     RETURN QUERY SELECT f, NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::timestamptz, m.member, m.workstation, m.job_id, m.idx, m.ended_at, m.outcome
       FROM (VALUES (1)) AS one LEFT JOIN LATERAL (${MOVED('p_account', 'p_operation', 'p_target', 'p_since', 'p_basis')}) AS m ON true;
   END $$`,

  // Right before the send: the precondition checked again; then the lease (the caller's, current,
  // unexpired) marked checked and renewed, and the item journaled as sending; nothing when either fails.
  `CREATE OR REPLACE FUNCTION team_begin_send(p_fence bigint, p_ttl_ms bigint, p_record_id uuid, p_job text, p_idx integer, p_state text, p_record jsonb,
       p_workstation text, p_since bigint, p_basis text, p_as text)
     RETURNS TABLE (held integer, m_member text, m_workstation text, m_job text, m_idx integer, m_at timestamptz, m_outcome text) ${DEFINER} AS $$
   #variable_conflict use_column
   DECLARE me text := team_member(p_as); lease team_leases%ROWTYPE; mv record;
   BEGIN
     SELECT * INTO lease FROM team_leases WHERE team_leases.fence = p_fence;
     IF NOT FOUND OR lease.member <> me OR lease.job_id <> p_job OR lease.idx <> p_idx THEN
       RAISE EXCEPTION 'team: lease % is not %''s', p_fence, me USING ERRCODE = '42501';
     END IF;
     SELECT * INTO mv FROM (${MOVED('lease.account', 'lease.operation', 'lease.target', 'p_since', 'p_basis')}) AS m WHERE m.outcome = 'done';
     IF FOUND THEN
       RETURN QUERY SELECT 0, mv.member, mv.workstation, mv.job_id, mv.idx, mv.ended_at, mv.outcome;
       RETURN;
     END IF;
     UPDATE team_leases SET checked_at = now(), expires_at = now() + p_ttl_ms * interval '1 millisecond'
       WHERE team_leases.fence = p_fence AND state = 'sending' AND expires_at > now();
     IF NOT FOUND THEN
       RETURN QUERY SELECT 0, NULL::text, NULL::text, NULL::text, NULL::integer, NULL::timestamptz, NULL::text;
       RETURN;
     END IF;
     UPDATE team_job_items SET state = p_state WHERE job_id = p_job AND idx = p_idx AND state NOT IN ('done', 'failed');
     INSERT INTO team_journal (record_id, job_id, member, workstation, record) VALUES (p_record_id, p_job, me, p_workstation, p_record)
       ON CONFLICT (record_id) DO NOTHING;
     RETURN QUERY SELECT 1, NULL::text, NULL::text, NULL::text, NULL::integer, NULL::timestamptz, NULL::text;
   END $$`,

  // A send that never left lets its lease go (only its holder; never an unknown outcome, which only evidence settles).
  `CREATE OR REPLACE FUNCTION team_release(p_fence bigint, p_relaxed boolean, p_as text) RETURNS void ${DEFINER} AS $$
   BEGIN
     IF p_relaxed THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
     UPDATE team_leases SET state = 'free', ended_at = now() WHERE fence = p_fence AND member = team_member(p_as) AND state = 'sending';
   END $$`,

  // The committed check before a send made on its own (a tool's, a test's): the caller's lease, current and unexpired, marked checked and renewed.
  `CREATE OR REPLACE FUNCTION team_still_held(p_fence bigint, p_ttl_ms bigint, p_as text) RETURNS boolean ${DEFINER} AS $$
   BEGIN
     UPDATE team_leases SET checked_at = now(), expires_at = now() + p_ttl_ms * interval '1 millisecond'
       WHERE fence = p_fence AND member = team_member(p_as) AND state = 'sending' AND expires_at > now();
     RETURN FOUND;
   END $$`,

  // The caller's send whose outcome is unknown keeps its target held, for everyone, until settled.
  `CREATE OR REPLACE FUNCTION team_keep_unknown(p_fence bigint, p_as text) RETURNS void ${DEFINER} AS $$
   BEGIN
     UPDATE team_leases SET state = 'unknown', ended_at = NULL WHERE fence = p_fence AND member = team_member(p_as) AND state IN ('sending', 'unknown');
   END $$`,

  // A send's end: its lease (still the caller's) let go or kept unknown, how it ended, its item's row,
  // its journal record and the team's history row; nothing at all when the lease is no longer its own.
  `CREATE OR REPLACE FUNCTION team_end(p_fence bigint, p_outcome text, p_record_id uuid, p_job text, p_idx integer, p_state text, p_record jsonb,
       p_workstation text, p_request_id text, p_h_account text, p_h_domain text, p_h_change jsonb, p_as text) RETURNS boolean ${DEFINER} AS $$
   DECLARE me text := team_member(p_as);
   BEGIN
     IF p_outcome NOT IN ('free', 'unknown') THEN RAISE EXCEPTION 'team: an end is free or unknown' USING ERRCODE = '22023'; END IF;
     UPDATE team_leases SET state = p_outcome, ended_at = CASE WHEN p_outcome = 'free' THEN now() ELSE NULL END,
         outcome = CASE WHEN p_state IN ('done', 'failed') THEN p_state ELSE outcome END,
         end_seq = CASE WHEN p_state IN ('done', 'failed') THEN nextval('team_end_seq') ELSE end_seq END,
         request_id = coalesce(p_request_id, request_id)
       WHERE fence = p_fence AND member = me AND job_id = p_job AND idx = p_idx AND state IN ('sending', 'unknown');
     IF NOT FOUND THEN RETURN false; END IF;
     UPDATE team_job_items SET state = p_state WHERE job_id = p_job AND idx = p_idx AND (state NOT IN ('done', 'failed') OR p_state IN ('done', 'failed'));
     INSERT INTO team_journal (record_id, job_id, member, workstation, record) VALUES (p_record_id, p_job, me, p_workstation, p_record)
       ON CONFLICT (record_id) DO NOTHING;
     -- The history row once, with the record (a retry after a lost answer finds the record there).
     IF FOUND AND p_h_change IS NOT NULL THEN
       INSERT INTO team_history (account, domain, member, workstation, change) VALUES (p_h_account, p_h_domain, me, p_workstation, p_h_change);
     END IF;
     RETURN true;
   END $$`,

  // An unknown outcome settled from the service's log: only with the request id and the log entry that show it; who settled it kept.
  `CREATE OR REPLACE FUNCTION team_settle(p_account text, p_operation text, p_target text, p_how text, p_request_id text, p_evidence jsonb, p_as text) RETURNS void ${DEFINER} AS $$
   BEGIN
     IF p_how NOT IN ('done', 'failed') OR p_request_id IS NULL OR p_evidence IS NULL OR p_evidence->>'request_id' IS DISTINCT FROM p_request_id THEN
       RAISE EXCEPTION 'team: an unknown outcome is settled only with the log entry that shows it' USING ERRCODE = '22023';
     END IF;
     ${EXPIRE('p_account', 'p_operation', 'p_target')};
     UPDATE team_leases SET state = 'free', ended_at = now(), outcome = p_how, end_seq = nextval('team_end_seq'), request_id = p_request_id,
         settled_by = team_member(p_as), settled_evidence = p_evidence
       WHERE account = p_account AND operation = p_operation AND target = p_target AND state = 'unknown';
   END $$`,

  // A journal record, appended: a job's (created by its member only), an item's or a status's of the
  // caller's own job; on a colleague's job, only an item's settling from the log (its state done or
  // failed with the log entry, or still unknown with a log check) of an item not settled yet.
  `CREATE OR REPLACE FUNCTION team_append(p_record_id uuid, p_job text, p_workstation text, p_record jsonb, p_account text, p_operation text, p_process uuid,
       p_items_idx integer[], p_items_target text[], p_items_state text[], p_item_idx integer, p_item_state text, p_as text) RETURNS void ${DEFINER} AS $$
   DECLARE me text := team_member(p_as); owner text; now_state text; kind text := p_record->>'t';
   BEGIN
     IF kind = 'job' THEN
       INSERT INTO team_jobs (id, account, operation, member, workstation, process) VALUES (p_job, p_account, p_operation, me, p_workstation, p_process)
         ON CONFLICT (id) DO NOTHING;
     END IF;
     SELECT member INTO owner FROM team_jobs WHERE id = p_job;
     IF owner IS NULL THEN RAISE EXCEPTION 'team: no job %', p_job USING ERRCODE = '23503'; END IF;
     IF owner <> me THEN
       SELECT state INTO now_state FROM team_job_items WHERE job_id = p_job AND idx = p_item_idx;
       IF kind <> 'item' OR coalesce(now_state, '') NOT IN ('sending', 'unknown')
          OR NOT ((p_item_state IN ('done', 'failed') AND (p_record->>'resolvedFromLog')::boolean IS TRUE AND p_record->'log'->'entry'->>'request_id' IS NOT NULL)
                  OR (p_item_state = 'unknown' AND p_record ? 'log')) THEN
         RAISE EXCEPTION 'team: job % is %''s: % may only settle its items from the log', p_job, owner, me USING ERRCODE = '42501';
       END IF;
     END IF;
     IF kind = 'job' THEN
       INSERT INTO team_job_items (job_id, idx, target, state)
         SELECT p_job, t.idx, t.target, t.state FROM unnest(p_items_idx, p_items_target, p_items_state) AS t(idx, target, state)
         ON CONFLICT (job_id, idx) DO UPDATE SET state = EXCLUDED.state WHERE team_job_items.state NOT IN ('done', 'failed');
     ELSIF kind = 'item' THEN
       UPDATE team_job_items SET state = p_item_state WHERE job_id = p_job AND idx = p_item_idx
         AND (state NOT IN ('done', 'failed') OR p_item_state IN ('done', 'failed'));
     END IF;
     INSERT INTO team_journal (record_id, job_id, member, workstation, record) VALUES (p_record_id, p_job, me, p_workstation, p_record)
       ON CONFLICT (record_id) DO NOTHING;
   END $$`,

  `CREATE OR REPLACE FUNCTION team_history_add(p_account text, p_domain text, p_change jsonb, p_workstation text, p_relaxed boolean, p_as text) RETURNS void ${DEFINER} AS $$
   BEGIN
     IF p_relaxed THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
     INSERT INTO team_history (account, domain, member, workstation, change) VALUES (p_account, p_domain, team_member(p_as), p_workstation, p_change);
   END $$`,

  // An account's identity as the team shares it; a change of its write safety level is a history entry with its member.
  `CREATE OR REPLACE FUNCTION team_share_account(p_account text, p_label text, p_colour text, p_tag text, p_write_safety text, p_workstation text, p_as text) RETURNS void ${DEFINER} AS $$
   DECLARE me text := team_member(p_as); was text;
   BEGIN
     SELECT write_safety INTO was FROM team_accounts WHERE fingerprint = p_account;
     INSERT INTO team_accounts (fingerprint, label, colour, tag, write_safety, updated_by) VALUES (p_account, p_label, p_colour, p_tag, p_write_safety, me)
       ON CONFLICT (fingerprint) DO UPDATE SET label = p_label, colour = p_colour, tag = p_tag, write_safety = p_write_safety, updated_by = me, updated_at = now();
     IF was IS DISTINCT FROM p_write_safety THEN
       INSERT INTO team_history (account, domain, member, workstation, change)
         VALUES (p_account, '', me, p_workstation, jsonb_build_object('kind', 'writeSafety', 'from', was, 'to', p_write_safety));
     END IF;
   END $$`,

  `CREATE OR REPLACE FUNCTION team_link_key(p_fingerprint text, p_account text, p_how text, p_as text) RETURNS void ${DEFINER} AS $$
   BEGIN
     INSERT INTO team_account_keys (fingerprint, account, how, linked_by) VALUES (p_fingerprint, p_account, p_how, team_member(p_as)) ON CONFLICT (fingerprint) DO NOTHING;
   END $$`,

  `CREATE OR REPLACE FUNCTION team_add_proof(p_account text, p_request_id text) RETURNS void ${DEFINER} AS $$
   BEGIN
     INSERT INTO team_account_proofs (account, request_id) VALUES (p_account, p_request_id) ON CONFLICT DO NOTHING;
   END $$`,

  `CREATE OR REPLACE FUNCTION team_reminder_due(p_key text, p_due timestamptz, p_as text) RETURNS SETOF team_reminders ${DEFINER} AS $$
   BEGIN
     INSERT INTO team_reminders (key, due_at) VALUES (p_key, p_due) ON CONFLICT (key) DO NOTHING;
     RETURN QUERY SELECT * FROM team_reminders WHERE key = p_key;
   END $$`,

  // The first member's handling wins; a snooze that ran out may be handled again. True when this call's handling is the one kept.
  `CREATE OR REPLACE FUNCTION team_reminder_handle(p_key text, p_how text, p_workstation text, p_snoozed_until timestamptz, p_as text) RETURNS boolean ${DEFINER} AS $$
   BEGIN
     UPDATE team_reminders SET handled = p_how, handled_by = team_member(p_as), handled_on = p_workstation, handled_at = now(),
         snoozed_until = CASE WHEN p_how = 'snoozed' THEN p_snoozed_until ELSE NULL END
       WHERE key = p_key AND (handled IS NULL OR (handled = 'snoozed' AND snoozed_until <= now()));
     RETURN FOUND;
   END $$`,

  `CREATE OR REPLACE FUNCTION team_record_drift(p_account text, p_domain text, p_finding jsonb, p_as text) RETURNS void ${DEFINER} AS $$
   BEGIN
     INSERT INTO team_drift_findings (account, domain, found_by, finding) VALUES (p_account, p_domain, team_member(p_as), p_finding);
   END $$`,

  // Settled jobs older than the team's retention move to the archive (with their journal records);
  // any member's app calls it (at most daily): it only moves what no one may change any more.
  `CREATE OR REPLACE FUNCTION team_archive_settled() RETURNS integer ${DEFINER} AS $$
   DECLARE moved integer;
   BEGIN
     WITH old AS (
       SELECT j.id FROM team_jobs j, team_settings s WHERE s.id = 1 AND j.created_at < now() - s.retention_days * interval '1 day'
         AND NOT EXISTS (SELECT 1 FROM team_job_items i WHERE i.job_id = j.id AND i.state IN ('pending', 'sending', 'unknown'))
         AND NOT EXISTS (SELECT 1 FROM team_leases l WHERE l.job_id = j.id AND l.state IN ('sending', 'unknown'))),
     records AS (INSERT INTO team_journal_archive SELECT r.* FROM team_journal r JOIN old ON old.id = r.job_id),
     jobs AS (INSERT INTO team_jobs_archive SELECT j.*, now() FROM team_jobs j JOIN old ON old.id = j.id)
     DELETE FROM team_jobs j USING old WHERE old.id = j.id;
     GET DIAGNOSTICS moved = ROW_COUNT;
     UPDATE team_settings SET archived_at = now() WHERE id = 1;
     RETURN moved;
   END $$`,
]

/**
 * Version 5 (issue 50 point 3): the notices of due reminders, claimed once for the team
 * (team-notices.ts): the keys this call won, in the caller's name.
 */
export const NOTICES_FUNCTION = `CREATE OR REPLACE FUNCTION team_claim_notices(p_rows jsonb, p_workstation text, p_as text) RETURNS SETOF text ${DEFINER} AS $$
   BEGIN
     RETURN QUERY INSERT INTO team_reminder_notices (key, account, expires, item, member, workstation)
       SELECT n.key, n.account, n.expires, n.item, team_member(p_as), p_workstation FROM jsonb_to_recordset(p_rows) AS n(key text, account text, expires text, item jsonb)
       ON CONFLICT (key) DO NOTHING RETURNING team_reminder_notices.key;
   END $$`

/**
 * The rights, given again after every migration (a new table or function starts with the
 * defaults): members read every team table and run the functions; nobody else (PUBLIC) does either,
 * and no member writes a table.
 */
export function grantsFor(group: string, tables: readonly string[]): string[] {
  const role = quoteIdent(group)
  return [
    `REVOKE CREATE ON SCHEMA public FROM ${role}`,
    `GRANT USAGE ON SCHEMA public TO ${role}`,
    ...tables.flatMap((t) => [
      `REVOKE ALL ON ${quoteIdent(t)} FROM PUBLIC`,
      `REVOKE ALL ON ${quoteIdent(t)} FROM ${role}`,
      `GRANT SELECT ON ${quoteIdent(t)} TO ${role}`,
    ]),
    ...TEAM_FUNCTIONS.flatMap((f) => [
      `REVOKE ALL ON FUNCTION ${f} FROM PUBLIC`,
      `GRANT EXECUTE ON FUNCTION ${f} TO ${role}`,
    ]),
  ]
}

/** An identifier as SQL writes it (a role name from the database, never from a user's text). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}
