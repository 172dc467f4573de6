/**
 * What a write touched, in words and with a link: a domain (its page), a zone (its editor), a
 * free DNS entry, a server named as the Servers screen names it (its name, and its kind as the
 * account calls it), a service IP. Read from each item's parameters as main froze them: the
 * parameters that name the target (src/main/jobs/targets.ts) are the same ones. The words come
 * in as a parameter so a test reads exactly what a user reads without a browser.
 */
import type { MessageKey } from '@shared/i18n/catalogue'
import type { Params } from '@shared/i18n/format'
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import type { JobItemView, JobView } from '@shared/jobs'
import { serverLink } from '../data/server-link'

/** A server as the Servers screen lists it. */
interface ListedServer {
  webid: string
  webname: string
}

export interface JobTargetWords {
  t(key: MessageKey, params?: Params): string
  /** The account's name for a server kind ("Web servers"). */
  kindLabel(accountId: string, kind: ServerKind): string
  /** The server of this id or name in the account's stored list, when it is there. */
  serverOf(accountId: string, kind: ServerKind, ref: string): ListedServer | undefined
}

interface JobTarget {
  /** One target once, however many items touched it. */
  key: string
  text: string
  /** Its screen, where it has one. */
  to?: string | undefined
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined
const isServerKind = (v: unknown): v is ServerKind => typeof v === 'string' && SERVER_KINDS.some((k) => k === v)

/** The domain an item names: `domain`, or a registration's `sld` and `tld`. */
function domainOf(params: Record<string, unknown>): string | undefined {
  const domain = str(params.domain)
  if (domain) return domain
  const sld = str(params.sld)
  const tld = str(params.tld)
  return sld && tld ? `${sld}.${tld.replace(/^\./, '')}` : undefined
}

/** The target of one item; undefined for a write of the whole account. */
export function itemTarget(
  w: JobTargetWords,
  job: Pick<JobView, 'accountId' | 'operation'>,
  item: Pick<JobItemView, 'params' | 'label'>,
): JobTarget | undefined {
  const p = item.params
  const op = job.operation
  const domain = domainOf(p)
  if (op.startsWith('freedns.') && domain)
    return {
      key: `freedns:${domain}`,
      text: w.t('jobs.target.freedns', { name: domain }),
      to: `/freedns/${encodeURIComponent(domain)}`,
    }
  if (op === 'domains.dns.set' && domain)
    return {
      key: `zone:${domain}`,
      text: w.t('jobs.target.zone', { name: domain }),
      to: `/dns/${encodeURIComponent(domain)}`,
    }
  if (domain) return { key: `domain:${domain}`, text: domain, to: `/domains/${encodeURIComponent(domain)}` }
  const ref = str(p.webid)
  if (isServerKind(p.kind) && ref) {
    const listed = w.serverOf(job.accountId, p.kind, ref)
    const server = listed ?? { webid: ref, webname: ref }
    // The name of a new server is its target until the service gives it an id.
    return {
      key: `server:${p.kind}:${listed?.webid ?? ref}`,
      text: w.t('jobs.target.server', { name: server.webname, kind: w.kindLabel(job.accountId, p.kind) }),
      to: serverLink(p.kind, server),
    }
  }
  const webname = str(p.webname)
  if (isServerKind(p.kind) && webname)
    return {
      key: `server:${p.kind}:${webname}`,
      text: w.t('jobs.target.server', { name: webname, kind: w.kindLabel(job.accountId, p.kind) }),
    }
  const vipid = str(p.vipid)
  if (vipid)
    return {
      key: `svcip:${vipid}`,
      text: w.t('jobs.target.svcip', { name: item.label || vipid }),
      to: `/svcips/${vipid}`,
    }
  return item.label && item.label !== 'account' ? { key: `label:${item.label}`, text: item.label } : undefined
}

/** Every target of a job, each once, in the items' order. */
export function jobTargets(w: JobTargetWords, job: Pick<JobView, 'accountId' | 'operation' | 'items'>): JobTarget[] {
  const seen = new Map<string, JobTarget>()
  for (const item of job.items) {
    const target = itemTarget(w, job, item)
    if (target && !seen.has(target.key)) seen.set(target.key, target)
  }
  return [...seen.values()]
}

/** How many targets a row names before "and N more". */
const TARGETS_SHOWN = 2

/** The targets a row names, and how many it leaves for the job's own panel. */
export function targetsSummary(
  targets: readonly JobTarget[],
  shown = TARGETS_SHOWN,
): { shown: JobTarget[]; more: number } {
  // "a, b and 1 more" says no more than "a, b, c": three are named where three are all.
  const n = targets.length <= shown + 1 ? targets.length : shown
  return { shown: targets.slice(0, n), more: targets.length - n }
}

/** The summary as one line of text (for sorting, filtering and the CSV). */
export function targetsText(
  w: Pick<JobTargetWords, 't'>,
  targets: readonly JobTarget[],
  shown = TARGETS_SHOWN,
): string {
  const s = targetsSummary(targets, shown)
  if (s.shown.length === 0) return w.t('jobs.target.account')
  const names = s.shown.map((x) => x.text).join(w.t('jobs.target.separator'))
  return s.more > 0 ? w.t('jobs.target.andMore', { names, count: s.more }) : names
}
