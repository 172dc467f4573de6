/**
 * A bulk DNS change, applied to one zone at a time: "replace value X with Y" (a server moving
 * from one address to another), "add a record" and "remove the records that match". Given a
 * zone's records text it gives the new text, the plan (shared/dns/plan), how many of the
 * zone's records change, and the safety verdict, like OctoDNS's: a zone where more than 30 %
 * of the records would change, or whose apex NS records would change, needs its own
 * confirmation. The new records are checked with the shared validator; a zone the change
 * would make invalid is reported and must not be sent.
 *
 * Values are compared whole (192.0.2.1 never matches inside 192.0.2.10 or inside an SPF
 * text); a value with several parts (MX, SRV, CAA) also matches on its name part as a whole
 * (an MX's mail server, an SRV's target, a CAA's issuer). Hosts are compared without case,
 * and an empty host is the apex, `@`. Lines the model keeps raw are never touched.
 *
 * Pure: codes and parameters only, worded by the renderer.
 */
import type { Finding } from '../service/validation'
import { isEmptyPlan, plan as makePlan, type Plan } from './plan'
import { editRecord, joinValue, mergeRecords, parse, serialise, serialiseRow, splitValue, txtText } from './records'
import type { KnownType, RecordRow, Row, ValueField, ValueFields } from './records'
import { safetyOfPlan } from './zone-safety'
import { planHealthOffline, type HealthFinding } from './health/rules'
import { HIDDEN_CHARACTER_CODE, hiddenCharacterIssue } from './hidden-characters'
import { recordIssues, validateRows, valueIssues, warnRows, type DnsCode, type RowIssue } from './validate'

/** Replace every record whose value is `from` (whole) by the same record with value `to`; optionally of one type only. */
export interface ReplaceChange {
  kind: 'replace'
  from: string
  to: string
  type?: KnownType | undefined
}
/** Add one record (left out of a zone that already has it). */
export interface AddChange {
  kind: 'add'
  type: KnownType
  host: string
  /** The value as the records model holds it (MX: `mail.example.com. 10`). */
  value: string
  /** The value's parts as typed in a form (see RecordRow.parts), checked instead of the text's. */
  parts?: ValueFields | undefined
}
/** Remove every record that matches all the criteria given (at least one). */
export interface RemoveChange {
  kind: 'remove'
  type?: KnownType | undefined
  /** Left out: any host. Given empty: the apex, as `@`. */
  host?: string | undefined
  value?: string | undefined
}
export type BulkChange = ReplaceChange | AddChange | RemoveChange

/** What is wrong with a change itself, before any zone is read. */
export const BULK_CODES = [
  'bulkDns.fromRequired',
  'bulkDns.toRequired',
  'bulkDns.sameValue',
  'bulkDns.removeCriteria',
] as const
export type BulkCode = (typeof BULK_CODES)[number]
export interface ChangeIssue extends Finding<BulkCode | DnsCode> {
  /** The field of the change's form it is about. */
  field: 'from' | 'to' | 'type' | 'host' | 'value' | ValueField
}

/** A validation error the change brings into a zone: the record (its text) and what is wrong. */
export interface ZoneIssue extends Finding<DnsCode> {
  record: string
}

export interface ZoneChange {
  /** The zone's records text after the change (the text as it was when nothing changes). */
  records: string
  plan: Plan
  /** Existing records updated or deleted (additions are not counted, as in OctoDNS). */
  changed: number
  /** Records in the zone before the change (blank lines and comments are not records). */
  total: number
  /** The change adds, removes or changes an NS record at the apex. */
  apexNs: boolean
  /** More than 30 % of the zone's existing records updated, or deleted, in a zone of 10 records or more (see zone-safety). */
  overThreshold: boolean
  /** apexNs or overThreshold: the zone needs its own, explicit confirmation. */
  needsOwnConfirmation: boolean
  /** Nothing to change in this zone. */
  empty: boolean
  /** Errors the change would bring in: when there are any, the zone must not be sent. */
  issues: ZoneIssue[]
  /** Warnings the change would bring in (a duplicate record): said, but the zone may be sent. */
  warnings: ZoneIssue[]
  /** For a replace: records that hold the value only as part of another value, left alone. */
  mentions: RecordRow[]
  /** For an add: the record was already there. */
  alreadyThere: boolean
  /** The zone's health after the change (the offline rules; the findings it introduces first); none without the zone's name. */
  health: HealthFinding[]
}

/** A host as it is compared: without case, and the apex written `@` (an empty host is the apex too). */
export function hostKey(host: string): string {
  const h = host.trim().toLowerCase()
  return h === '' ? '@' : h
}

const spaced = (v: string) => v.trim().split(/\s+/).filter(Boolean).join(' ')

/** A whole value as it is compared for a type: host names and addresses without case, a TXT with or without its quotation marks. */
export function valueKey(type: KnownType, value: string): string {
  switch (type) {
    case 'txt':
      return txtText(value.trim())
    case 'mx':
      return joinValue('mx', splitValue('mx', spaced(value))).toLowerCase()
    case 'caa':
      return joinValue('caa', splitValue('caa', spaced(value))).toLowerCase()
    default:
      return spaced(value).toLowerCase()
  }
}

/** A value as the service writes it: an MX given priority first (`10 mail.example.com.`) is written mail server first. */
const inServiceOrder = (type: KnownType, value: string): string =>
  type === 'mx' ? joinValue('mx', splitValue('mx', value)) : value.trim()

/** The part of a multi-part value that names something (matched whole by a replace). */
const NAME_PART: Partial<Record<KnownType, ValueField>> = { mx: 'target', srv: 'target', caa: 'value' }

/** The record with `from` replaced by `to`, or undefined when its value is not `from` (whole, or its name part whole). */
function replaced(r: RecordRow, from: string, to: string): RecordRow | undefined {
  if (valueKey(r.type, r.value) === valueKey(r.type, from)) return editRecord(r, { value: inServiceOrder(r.type, to) })
  const part = NAME_PART[r.type]
  if (!part) return undefined
  const parts = splitValue(r.type, r.value)
  const current = parts[part]
  if (current === undefined || current.trim() === '' || spaced(current).toLowerCase() !== spaced(from).toLowerCase())
    return undefined
  return editRecord(r, { value: joinValue(r.type, { ...parts, [part]: to.trim() }) })
}

/**
 * X standing on its own inside a longer value (`ip4:192.0.2.10` in an SPF text), not as the
 * start of something else (192.0.2.10 in 192.0.2.100, or in www.192.0.2.10.example).
 */
function mentionOf(value: string): RegExp | undefined {
  const v = value.trim()
  if (v === '') return undefined
  const escaped = v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(?<![a-z0-9.-])${escaped}(?![a-z0-9-]|\\.[a-z0-9])`, 'i')
}

function matchesRemove(r: RecordRow, c: RemoveChange): boolean {
  if (c.type !== undefined && r.type !== c.type) return false
  if (c.host !== undefined && hostKey(r.host) !== hostKey(c.host)) return false
  if (c.value !== undefined && c.value.trim() !== '' && valueKey(r.type, r.value) !== valueKey(r.type, c.value))
    return false
  return true
}

const hasRemoveCriteria = (c: RemoveChange) =>
  c.type !== undefined || c.host !== undefined || (c.value ?? '').trim() !== ''

/** What is wrong with a change as given (an empty list: it can be planned). */
export function checkChange(c: BulkChange): ChangeIssue[] {
  // A field with a character that hides or splits a line: refused before anything else is checked.
  for (const [field, text] of changeTexts(c)) {
    const hidden = hiddenCharacterIssue(text)
    if (hidden) return [{ ...hidden, field }]
  }
  switch (c.kind) {
    case 'replace': {
      const out: ChangeIssue[] = []
      if (c.from.trim() === '') out.push({ code: 'bulkDns.fromRequired', field: 'from' })
      if (c.to.trim() === '') out.push({ code: 'bulkDns.toRequired', field: 'to' })
      if (out.length > 0) return out
      if (c.type ? valueKey(c.type, c.from) === valueKey(c.type, c.to) : spaced(c.from) === spaced(c.to))
        return [{ code: 'bulkDns.sameValue', field: 'to' }]
      // With a type, the new value is checked for it now; without one, per record in each zone's plan.
      if (c.type && !NAME_PART[c.type]) {
        for (const i of valueIssues(c.type, 'www', c.to))
          if (i.field !== 'host') return [{ code: i.code, params: i.params, field: 'to' }]
      }
      return []
    }
    case 'add': {
      // The record's own checks, the editor's and the zone's: its host (an IDN one as its punycode), else its value.
      const host = c.host.trim() === '' ? '@' : c.host.trim()
      return recordIssues({ type: c.type, host, value: c.value, parts: c.parts }).map((i) => ({
        code: i.code,
        params: i.params,
        field: i.field ?? 'value',
      }))
    }
    case 'remove':
      return hasRemoveCriteria(c) ? [] : [{ code: 'bulkDns.removeCriteria', field: 'type' }]
  }
}

/** The text fields of a change, each with the form field it is typed in. */
function changeTexts(c: BulkChange): [ChangeIssue['field'], string][] {
  switch (c.kind) {
    case 'replace':
      return [
        ['from', c.from],
        ['to', c.to],
      ]
    case 'add':
      return [
        ['host', c.host],
        ['value', c.value],
        ...Object.values(c.parts ?? {}).map((v): [ChangeIssue['field'], string] => ['value', String(v ?? '')]),
      ]
    case 'remove':
      return [
        ['host', c.host ?? ''],
        ['value', c.value ?? ''],
      ]
  }
}

function applyOne(rows: Row[], c: BulkChange, mentions: RecordRow[]): { rows: Row[]; alreadyThere: boolean } {
  switch (c.kind) {
    case 'replace': {
      const within = mentionOf(c.from)
      const next = rows.map((r) => {
        if (r.kind !== 'record' || (c.type !== undefined && r.type !== c.type)) return r
        const to = replaced(r, c.from, c.to)
        if (to) return to
        if (within?.test(r.value)) mentions.push(r)
        return r
      })
      return { rows: next, alreadyThere: false }
    }
    case 'add': {
      const record: RecordRow = {
        kind: 'record',
        type: c.type,
        host: c.host.trim() === '' ? '@' : c.host.trim(),
        value: inServiceOrder(c.type, c.value),
        ...(c.parts ? { parts: c.parts } : {}),
      }
      const merged = mergeRecords(rows, [record])
      return { rows: merged.rows, alreadyThere: merged.added.length === 0 }
    }
    case 'remove':
      return {
        rows: hasRemoveCriteria(c) ? rows.filter((r) => r.kind !== 'record' || !matchesRemove(r, c)) : rows,
        alreadyThere: false,
      }
  }
}

type RowCheck = (rows: Row[]) => RowIssue[]
/** The text of the row an issue is about. */
const recordText = (rows: Row[], i: RowIssue): string => {
  const row = rows[i.index]
  return row ? serialiseRow(row) : ''
}
const issueKey = (rows: Row[], i: RowIssue) => `${i.code}\u0000${recordText(rows, i)}`

/**
 * The problems a check finds in the rows after the change that it did not find before, by code
 * and record text (row numbers shift when rows come and go): a zone the service already holds
 * with a problem is not refused for it.
 */
function broughtIn(check: RowCheck, before: Row[], after: Row[]): ZoneIssue[] {
  const had = new Map<string, number>()
  for (const i of check(before)) had.set(issueKey(before, i), (had.get(issueKey(before, i)) ?? 0) + 1)
  const out: ZoneIssue[] = []
  for (const i of check(after)) {
    const k = issueKey(after, i)
    const left = had.get(k) ?? 0
    if (left > 0) had.set(k, left - 1)
    else out.push({ code: i.code, params: i.params, record: recordText(after, i) })
  }
  return out
}
const duplicatesOf: RowCheck = (r) => warnRows(r).filter((w) => w.code === 'dns.duplicate')

/**
 * Applies the change (or several, in order) to a zone's records text. Only the errors the
 * change brings in count: a zone the service already holds with a problem is not refused for it.
 */
export function applyBulkChange(text: string, change: BulkChange | readonly BulkChange[], zone?: string): ZoneChange {
  const before = parse(text)
  const mentions: RecordRow[] = []
  let rows = before
  let alreadyThere = false
  for (const c of [change].flat()) {
    const r = applyOne(rows, c, mentions)
    rows = r.rows
    alreadyThere ||= r.alreadyThere
  }
  const p = makePlan(before, rows)
  const empty = isEmptyPlan(p)
  const { total, changed, apexNs, overThreshold, needsOwnConfirmation } = safetyOfPlan(p, before, zone)

  // Lines of the zone as the service holds them stay as they are, even where the app cannot place them.
  const kept = new Set(text.split('\n'))
  const brought = empty ? [] : broughtIn((r) => validateRows(r, { kept }), before, rows)
  // A line with a hidden character is refused even where the zone already held it: the save would write it again.
  const hidden = empty
    ? []
    : validateRows(rows).filter(
        (i) =>
          i.code === HIDDEN_CHARACTER_CODE &&
          !brought.some((b) => b.code === i.code && b.record === recordText(rows, i)),
      )
  const issues = [...brought, ...hidden.map((i) => ({ code: i.code, params: i.params, record: recordText(rows, i) }))]
  const warnings = empty ? [] : broughtIn(duplicatesOf, before, rows)
  return {
    records: empty ? text : serialise(rows),
    plan: p,
    changed,
    total,
    apexNs,
    overThreshold,
    needsOwnConfirmation,
    empty,
    issues,
    warnings,
    mentions,
    alreadyThere,
    health: zone && !empty ? planHealthOffline(before, rows, zone) : [],
  }
}
