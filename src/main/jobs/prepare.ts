/**
 * Preparing a job: the account, operation and every item's parameters validated and frozen, each
 * item's target named once, a zone save checked against the safety rule, the targets checked
 * free (or, when asked, the held ones left out, each with who holds it), and what each item will
 * change read (for the confirmation). The result is a value: the
 * job as shown, and what only the runner keeps (what is sent, the zone guards, the one-time
 * token an operation marked `confirm` needs to start). Nothing is stored or sent here.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { endpoints, parseEndpointParams, type EndpointParams, type WriteEndpointName } from '@shared/endpoints/table'
import type { Issue } from '@shared/errors'
import type { JobItemView, JobRequest, JobView, LeftOutItem, ZoneGuard } from '@shared/jobs'
import type { WriteSafety } from '@shared/accounts/write-safety'
import { SAFETY_RULE, SAFETY_RULE_PERCENT } from '@shared/dns/zone-safety'
import { heldError } from './held-by'
import { AppError } from '../base/app-error'
import type { ApiClient } from '../http'
import { canonicalDomain, type DomainNameOf } from './domain-names'
import { effectsOf } from './effects'
import type { LedgerMark, TargetRef, TargetHolder } from './ledger/write-ledger'
import { basisOf } from './preconditions'
import { factsOf } from './operations'
import { inServiceValues } from './in-service-values'
import { defaultLabel, targetOf, type ServerIdOf } from './targets'
import { zoneSaveVerdict } from './zone-rules'

/** A prepared job frozen: its view, and what the runner keeps beside it (what is sent, the guards, the token). */
export interface FrozenJob {
  job: JobView
  /** The items' parameters as validated: what is sent. */
  params: EndpointParams<WriteEndpointName>[]
  /** Per item: the zone its change was planned from (zone saves). */
  guards: (ZoneGuard | undefined)[]
  /** The one-time token `start` asks for, when the job waits for a confirmation. */
  token: string | undefined
  /** With `skipBusy`: the items left out because another send held their target (not in the job). */
  leftOut: LeftOutItem[]
}

/** What preparing reads: the account, what the app knows of its servers and domains, and the holds. */
export interface PrepareContext {
  client(accountId: string): Promise<ApiClient>
  nameOf(accountId: string): string
  writeSafety?(accountId: string): WriteSafety
  autorenewOnValue?(accountId: string): Promise<number | undefined>
  serverIdsOf?: (accountId: string) => Promise<ServerIdOf>
  domainNamesOf?: (accountId: string) => DomainNameOf
  /** Who holds each target now, if anyone, in their order (the ledger). */
  holdersOf(refs: readonly TargetRef[]): Promise<Array<TargetHolder | undefined>>
  /** The ledger's mark now: taken before what the job is confirmed against is read (preconditions.ts). */
  mark?(): Promise<LedgerMark>
  now(): Date
}

const DEFAULT_CONCURRENCY = 3

export async function prepareJob(req: JobRequest, ctx: PrepareContext): Promise<FrozenJob> {
  const def = endpoints[req.operation]
  const issues: Issue[] = []
  const items: JobItemView[] = []
  const sendable: EndpointParams<WriteEndpointName>[] = []
  const guards: (ZoneGuard | undefined)[] = []
  const overRule: string[] = []
  const zoneKind = factsOf(req.operation).zone
  const onValue = await ctx.autorenewOnValue?.(req.accountId)
  const serverIdOf = await ctx.serverIdsOf?.(req.accountId)
  const domainNameOf = ctx.domainNamesOf?.(req.accountId)
  for (const [i, item] of req.items.entries()) {
    const parsed = parseEndpointParams(req.operation, item.params)
    if (!parsed.ok) {
      for (const issue of parsed.issues) issues.push({ ...issue, path: `items.${i}.${issue.path}` })
      continue
    }
    const named = await domainByName(req.operation, parsed.value, domainNameOf)
    if (!named.ok) {
      issues.push({ path: `items.${i}.domain`, code: 'field.domainIdUnknown', params: { id: named.id } })
      continue
    }
    const value = inServiceValues(req.operation, named.params, onValue)
    const label = item.label ?? defaultLabel(value)
    let overRuleConfirmed = false
    if (zoneKind) {
      const verdict = zoneSaveVerdict(
        String(Reflect.get(value, 'domain')),
        String(Reflect.get(value, 'records')),
        item.guard,
        item.overRule === true,
      )
      if (!verdict.ok && verdict.code === 'dns.hiddenCharacter') {
        issues.push({ path: `items.${i}.records`, code: verdict.code, params: { ...verdict.hidden } })
        continue
      }
      if (!verdict.ok && verdict.code === 'dns.guardRequired') {
        issues.push({ path: `items.${i}.guard`, code: 'dns.guardRequired' })
        continue
      }
      if (!verdict.ok) overRule.push(label)
      overRuleConfirmed = verdict.ok && verdict.safety.needsOwnConfirmation
    }
    // Frozen: this is what will be sent and shown, whatever the caller does with what it sent.
    // No copy is needed: parsing built every object and array of it afresh (the endpoint schemas
    // have no pass-through value), and its strings cannot change. One value for sending and the
    // view: a prepared zone save waiting for its confirmation holds no copy of its records (a bulk
    // change of large zones held them twice over).
    const frozen = deepFreeze(value)
    sendable.push(frozen)
    guards.push(item.guard ? { ...item.guard } : undefined)
    const params: Readonly<Record<string, unknown>> = frozen
    items.push({
      target: targetOf(req.operation, params, serverIdOf),
      label,
      params,
      state: 'pending',
      ...(overRuleConfirmed ? { overRule: true } : {}),
    })
  }
  if (issues.length > 0) throw AppError.invalid('ipc.invalidPayload', issues.slice(0, 20))
  // Over the safety rule, and not confirmed on its own: nothing is prepared, whoever asked.
  if (overRule.length > 0) {
    throw AppError.of('validation', {
      code: 'dns.overSafetyRule',
      params: { zones: overRule.slice(0, 10).join(', '), percent: SAFETY_RULE_PERCENT, min: SAFETY_RULE.minRecords },
    })
  }
  // One job names each target once: the same domain twice (by name in two cases, or by name and
  // id) would be sent twice.
  const seen = new Set<string>()
  const twice = items.filter((it) => (seen.has(it.target) ? true : (seen.add(it.target), false)))
  if (twice.length > 0)
    throw AppError.of('validation', {
      code: 'job.duplicateTarget',
      params: {
        targets: twice
          .map((it) => it.label)
          .slice(0, 10)
          .join(', '),
      },
    })

  const holders = await ctx.holdersOf(
    items.map((it) => ({ accountId: req.accountId, operation: req.operation, target: it.target })),
  )
  // A target held by a send on its way, or by one of unknown outcome (unless a second send was asked for).
  const blocking = holders.map((h) => (h && (h.state === 'sending' || !req.secondSend) ? h : undefined))
  const busy = items.filter((_, i) => blocking[i] !== undefined)
  if (busy.length > 0 && !req.skipBusy) {
    // The first holder named (team mode: who, where, since when); a send on its way before an unknown outcome.
    const first = holders.find((h) => h?.state === 'sending') ?? holders.find((h) => h !== undefined)
    if (first)
      throw new AppError(
        heldError(
          first,
          busy
            .map((it) => it.label)
            .slice(0, 10)
            .join(', '),
        ),
      )
  }
  // Asked to go on around them: each held item is left out, saying who holds it; the rest is the job.
  const leftOut: LeftOutItem[] = items.flatMap((it, index) => {
    const holder = blocking[index]
    return holder ? [{ index, label: it.label, error: heldError(holder, it.label) }] : []
  })
  const kept = <T>(list: readonly T[]): T[] => list.filter((_, i) => blocking[i] === undefined)
  const jobItems = kept(items)

  // The mark first, then what the job is confirmed against: a send of one of its targets that
  // ends after the mark may not show in what is read now, so it refuses the item later.
  const mark = await ctx.mark?.()
  const client = await ctx.client(req.accountId)
  const effects = await effectsOf(
    client,
    req.operation,
    jobItems.map((it) => it.params),
  )
  jobItems.forEach((it, i) => {
    const effect = effects[i]
    if (!effect) return
    it.effect = effect
    const basis = basisOf(req.operation, it)
    if (basis !== undefined) it.basis = basis
  })
  const safety = ctx.writeSafety?.(req.accountId) ?? 'none'
  const job: JobView = {
    id: `w-${randomUUID()}`,
    accountId: req.accountId,
    accountName: ctx.nameOf(req.accountId),
    operation: req.operation,
    confirm: def.confirm || safety !== 'none',
    ...(safety === 'name' ? { confirmByName: true } : {}),
    ...(req.purpose ? { purpose: req.purpose } : {}),
    status: 'prepared',
    createdAt: ctx.now().toISOString(),
    concurrency: Math.min(8, Math.max(1, req.concurrency ?? DEFAULT_CONCURRENCY)),
    ...(mark !== undefined ? { mark } : {}),
    items: jobItems,
  }
  const token = job.confirm ? randomBytes(24).toString('base64url') : undefined
  return { job, params: kept(sendable), guards: kept(guards), token, leftOut }
}

/** Frozen through and through: what is sent cannot be changed after the confirmation shows it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}

/**
 * A write's domain by its canonical name: a numeric id becomes the name the store knows it by
 * (or is refused), and a name loses its case and final dot, so one domain is one target and the
 * request, the journal and history name it the same way.
 */
async function domainByName<N extends WriteEndpointName>(
  operation: N,
  params: EndpointParams<N>,
  nameOf: DomainNameOf | undefined,
): Promise<{ ok: true; params: EndpointParams<N> } | { ok: false; id: string }> {
  const facts = factsOf(operation)
  const domain: unknown = Reflect.get(params, 'domain')
  if (typeof domain !== 'string' || (facts.subject !== 'domain' && facts.subject !== 'freedns'))
    return { ok: true, params }
  let name = domain
  if (/^\d+$/.test(domain)) {
    const known = await nameOf?.(facts.subject, Number(domain))
    if (known === undefined) return { ok: false, id: domain }
    name = known
  }
  const out: EndpointParams<N> = { ...params }
  Reflect.set(out, 'domain', canonicalDomain(name))
  return { ok: true, params: out }
}
