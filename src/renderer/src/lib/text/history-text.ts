/**
 * A history entry in words: what happened (an operation from this app, or a change found from
 * outside), whom it is about (named and linked as the screens name them), and the difference:
 * for a zone, a plan (added / changed / removed records) and its TTL and DNS service; for the
 * other aspects, each member before and after, in words (on and off, dates, seconds, months),
 * never a raw code or a dash where the value is known.
 */
import type { HistoryEntry } from '@shared/portfolio/history'
import { plan, type Plan } from '@shared/dns/plan'
import { parse } from '@shared/dns/records'
import { formatDate, t, tCode } from '../../i18n'
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import { isServerId, serverRefOf } from '@shared/service/server-ref'
import { serverLink } from '../data/server-link'
import { healthChangeSchema, servedChangeSchema } from '@shared/dns/health/finding-schema'
import type { ServedFinding } from '@shared/dns/health/served'
import type { HealthFinding } from '@shared/dns/health/rules'
import { healthText } from '@shared/i18n/health-text'

export function entryTitle(e: HistoryEntry): string {
  // Findings that appeared or went away with a zone's change, whoever made it.
  if (e.aspect === 'health' || e.aspect === 'served') return tCode(`history.aspect.${e.aspect}`)
  if (e.origin === 'outside') return t('history.changedOutside', { aspect: tCode(`history.aspect.${e.aspect}`) })
  const op = e.operation ? tCode(`operation.${e.operation}`) : tCode(`history.aspect.${e.aspect}`)
  return e.purpose && e.purpose !== 'edit' ? `${op} (${tCode(`history.purpose.${e.purpose}`)})` : op
}

const recordsOf = (v: unknown): string | undefined =>
  typeof v === 'object' && v !== null && 'records' in v && typeof v.records === 'string' ? v.records : undefined

/** For a zone: the plan from before to after, when both are known. */
export function entryPlan(e: HistoryEntry): Plan | undefined {
  if (e.aspect !== 'dns') return undefined
  const before = recordsOf(e.before)
  const after = recordsOf(e.after)
  if (before === undefined || after === undefined) return undefined
  return plan(parse(before), parse(after))
}

/**
 * What the words of a row need from the account it belongs to: a server kind's name and a DNS
 * service's name, as the account's screens show them. Without an account: the codes themselves.
 */
export interface HistoryNames {
  serverKind(kind: ServerKind): string
  nsType(word: string): string
}
const plainNames: HistoryNames = { serverKind: (k) => k, nsType: (w) => w }

/** Members that are switches: 0 reads as off, any other whole number as on (the service writes 10 for an auto-renewal setting that is on). */
const SWITCHES: ReadonlySet<string> = new Set([
  'transfer_lock',
  'autorenew',
  'autorenew_all',
  'autorenew_domain',
  'autorenew_server',
  'whoisproxy',
  'whois_proxy',
  'dynamicdns',
  'ssl_on',
  'www_flg',
  'wp_flg',
])
/** Members that name the subject itself, by its kind: the row's subject already says them (a service IP's webid is its server, a setting). */
const SUBJECT_MEMBERS: Record<HistoryEntry['subjectKind'], readonly string[]> = {
  domain: ['domain'],
  freedns: ['domain'],
  server: ['kind', 'webid'],
  svcip: ['vipid'],
  account: [],
}
const CONTACT_ROLES = ['registrant', 'admin', 'tech', 'billing'] as const

const wholeNumber = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)
const objectOf = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : {}
const textOf = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '')

/** A DS record in words (key tag, algorithm, digest type), from the service's numbers. */
function dsText(v: unknown): string {
  const r = objectOf(v)
  return t('history.dsRecord', { keytag: textOf(r.keytag), alg: textOf(r.alg), digesttype: textOf(r.digesttype) })
}

/** One contact as a person is named: name, organisation, country. */
function personText(v: unknown): string {
  const c = objectOf(v)
  const name = [textOf(c.firstname), textOf(c.lastname)].filter(Boolean).join(' ')
  const text = [name, textOf(c.organization), textOf(c.country)].filter(Boolean).join(', ')
  return text || t('history.none')
}

/** A member's value in words: on or off, a date, seconds, months, a DNS service, DS records; "none" for nothing. */
function memberValue(member: string, v: unknown, names: HistoryNames): string {
  if (isEmpty(v)) return t('history.none')
  const n = wholeNumber(v)
  if (SWITCHES.has(member) && n !== undefined) return t(n !== 0 ? 'history.on' : 'history.off')
  if (member === 'expirationdate' && typeof v === 'string') return formatDate(v)
  if (member === 'ttl' && n !== undefined) return t('history.seconds', { count: n })
  if (member === 'months' && n !== undefined) return t('history.months', { count: n })
  if (member === 'years' && n !== undefined) return t('history.years', { count: n })
  if (member === 'ns_type' && typeof v === 'string') return names.nsType(v)
  if (member === 'kind' && typeof v === 'string' && isServerKind(v)) return names.serverKind(v)
  if (member === 'ds_records') return (Array.isArray(v) ? v : [v]).map(dsText).join('; ')
  return valueText(v)
}

function valueText(v: unknown): string {
  if (isEmpty(v)) return t('history.none')
  if (Array.isArray(v)) return v.map(valueText).join(', ')
  if (typeof v === 'object')
    return Object.entries(objectOf(v))
      .map(([k, x]) => `${k}: ${valueText(x)}`)
      .join('; ')
  return String(v)
}

const isServerKind = (v: string): v is ServerKind => SERVER_KINDS.some((k) => k === v)

/** WHOIS contacts: one line per role whose person changed, "Registrant: A, JP → B, JP". */
function contactChanges(before: unknown, after: unknown): string[] {
  const b = objectOf(before)
  const a = objectOf(after)
  return CONTACT_ROLES.filter((role) => JSON.stringify(b[role]) !== JSON.stringify(a[role])).map((role) =>
    t('history.memberChange', {
      member: tCode(`domain.role.${role}`),
      before: personText(b[role]),
      after: personText(a[role]),
    }),
  )
}

/** "member: before → after" for each member that differs; "member: value" when there is no before (a new thing, a setting first read). */
function memberChanges(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
  names: HistoryNames,
  subject: readonly string[] = [],
  label = (k: string) => tCode(`history.member.${k}`),
): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])].filter((k) => !subject.includes(k))
  const set = (k: string) =>
    isEmpty(after[k]) ? [] : [t('history.memberSet', { member: label(k), value: memberValue(k, after[k], names) })]
  return keys.flatMap((k) => {
    if (before === undefined) return set(k)
    // A member one side does not hold was not read there (a row kept before issue 53): unknown is
    // not "none". Unknown after: no line; unknown before: what it was set to, as for a new thing.
    if (!(k in after)) return []
    if (!(k in before)) return set(k)
    if (JSON.stringify(before[k]) === JSON.stringify(after[k])) return []
    if (k === 'contact') return contactChanges(before[k], after[k])
    return [
      t('history.memberChange', {
        member: label(k),
        before: memberValue(k, before[k], names),
        after: memberValue(k, after[k], names),
      }),
    ]
  })
}

/** A zone's settings beside its records: the TTL of the whole zone and the DNS service, when they changed. */
function zoneSettingChanges(e: HistoryEntry, names: HistoryNames): string[] {
  if (e.before === undefined || e.after === undefined) return []
  const pick = (v: unknown) => {
    const o = objectOf(v)
    return { ttl: o.ttl, ns_type: o.ns_type }
  }
  const label = (k: string) => (k === 'ttl' ? t('history.zoneTtl') : tCode(`history.member.${k}`))
  const after = pick(e.after)
  // A value one side does not hold (a zone read without its DNS service) is not a change.
  const before = pick(e.before)
  for (const k of ['ttl', 'ns_type'] as const) if (isEmpty(before[k]) || isEmpty(after[k])) before[k] = after[k]
  return memberChanges(before, after, names, [], label)
}

/** A health entry: each finding that appeared (after), then each that went away (before). */
function healthChanges(e: HistoryEntry): string[] {
  const findings = (v: unknown) => {
    const read = healthChangeSchema.safeParse(v)
    return read.success ? read.data.findings : []
  }
  const line = (key: 'history.healthAppeared' | 'history.healthCleared') => (f: HealthFinding) => {
    const text = healthText({ tCode }, f)
    return t(key, { finding: text.title, record: text.record })
  }
  return [
    ...findings(e.after).map(line('history.healthAppeared')),
    ...findings(e.before).map(line('history.healthCleared')),
  ]
}

/** A served entry: each finding of this comparison not in the one before, then each that went away. */
function servedChanges(e: HistoryEntry): string[] {
  const findings = (v: unknown) => {
    const read = servedChangeSchema.safeParse(v)
    return read.success ? read.data.findings : []
  }
  const text = (f: ServedFinding) => tCode(f.code, f.params)
  const before = findings(e.before).map(text)
  const after = findings(e.after).map(text)
  return [
    ...after.filter((f) => !before.includes(f)).map((finding) => t('history.servedAppeared', { finding })),
    ...before.filter((f) => !after.includes(f)).map((finding) => t('history.servedCleared', { finding })),
  ]
}

/**
 * The difference in words, one line each: for a zone, its TTL and DNS service (its records are
 * the plan); for a write from this app that did not end done, what it asked for; otherwise each
 * member before → after, or its value when there was no before.
 */
export function entryChanges(e: HistoryEntry, names: HistoryNames = plainNames): string[] {
  if (e.aspect === 'dns') return zoneSettingChanges(e, names)
  if (e.aspect === 'health') return healthChanges(e)
  if (e.aspect === 'served') return servedChanges(e)
  const subject = SUBJECT_MEMBERS[e.subjectKind]
  if (e.origin === 'app' && e.outcome !== 'done' && e.params) return memberChanges(undefined, e.params, names, subject)
  return memberChanges(e.before === undefined ? undefined : objectOf(e.before), objectOf(e.after), names, subject)
}

/** A server's subject, "kind:ref" (ref its name, or its id where the name cannot serve). */
function serverOf(e: HistoryEntry): { kind: ServerKind; ref: string } | undefined {
  if (e.subjectKind !== 'server') return undefined
  const at = e.subject.indexOf(':')
  const kind = e.subject.slice(0, at)
  return at > 0 && isServerKind(kind) ? { kind, ref: e.subject.slice(at + 1) } : undefined
}

/** Whom a row is about, as the screens name it: a domain by its name, a server by its name and kind as the Servers screen shows them. */
export function subjectText(e: HistoryEntry, names: HistoryNames = plainNames): string {
  const server = serverOf(e)
  if (server) return t('history.serverSubject', { name: server.ref, kind: names.serverKind(server.kind) })
  if (e.subjectKind === 'svcip') return t('history.svcipSubject', { id: e.subject })
  return e.subject
}

/** The page of a row's subject: a domain's, a free DNS zone's, a server's, a service IP's; none for the account. */
export function subjectLink(e: HistoryEntry): string | undefined {
  if (!e.subject) return undefined
  switch (e.subjectKind) {
    case 'domain':
      return `/domains/${encodeURIComponent(e.subject)}`
    case 'freedns':
      return `/freedns/${encodeURIComponent(e.subject)}`
    case 'svcip':
      return isServerId(e.subject) ? `/svcips/${e.subject}` : undefined
    case 'server': {
      const server = serverOf(e)
      // A reference that cannot stand in an address (a row from before names were kept) has no link.
      return server && (isServerId(server.ref) || serverRefOf({ webid: '', webname: server.ref }) === server.ref)
        ? serverLink(server.kind, { webid: server.ref, webname: server.ref })
        : undefined
    }
    case 'account':
      return undefined
  }
}
