/**
 * Writes from a view. Every write is a job that main runs (src/main/jobs), frozen when it is
 * prepared: the account is the one this view was made for, and the parameters are those given
 * here, whatever happens in the window afterwards. An operation that costs money, changes
 * ownership or cannot be undone is confirmed first: the dialog names the account and each
 * item's effect as main read it, and only the dialog's yes starts the job with its token.
 */
import { onScopeDispose, ref, shallowRef, watch } from 'vue'
import type { EndpointResult, WriteEndpointName } from '@shared/endpoints/table'
import type { ApiParams } from '@shared/ipc/contract'
import type { ItemEffect, JobItemView, JobView, ZoneGuard } from '@shared/jobs'
import type { ServiceKeptFinding } from '@shared/service/service-kept'
import type { ErrorData, Result } from '../data/bridge'
import type { AccountApi, JobItems, JobOptions } from '../data/account-api'
import { accountMarks, nameToType } from '../lib/text/account-text'
import { formatDate, t } from '../i18n'
import { useAccountsStore } from '../stores/accounts'
import { useJobsStore } from '../stores/jobs'
import { notify } from '../lib/notify'
import type { ConfirmRequest } from '../lib/confirm'
import { confirmAndStart, type StartQuestion } from '../data/start-jobs'
import { useAccountApi } from './useAccountApi'

/** How the user is asked: the caller's words; the account and the items come from the prepared job. */
export type Confirmation = Omit<ConfirmRequest, 'resolve' | 'items' | 'account' | 'accountNameToType'>

/** One item's options: a zone save's guard (the zone it was planned from) and its own confirmation over the safety rule. */
export type ItemOptions = JobOptions & { guard?: ZoneGuard | undefined; overRule?: boolean | undefined }

/** The confirmation of a write that is confirmed only because its account confirms every write. */
function writeConfirmation(operation: WriteEndpointName, count: number): Confirmation {
  return {
    title: t('confirm.writeTitle', { operation: t(`operation.${operation}`) }),
    lines: [t('confirm.writeLine', { count })],
    confirmLabel: t('confirm.writeSend'),
  }
}

/** An item's effect in words: "1 Jan 2027 → 1 Jan 2029". */
export function effectText(effect: ItemEffect | undefined): string | undefined {
  if (!effect) return undefined
  if (effect.unreadable) return t('jobs.effectUnreadable')
  if (effect.from && effect.to)
    return t('jobs.effectMove', { from: formatDate(effect.from), to: formatDate(effect.to) })
  if (effect.to) return t('jobs.effectUntil', { to: formatDate(effect.to) })
  return undefined
}

/** What went wrong with an item, as error data (an unknown outcome is its own kind). */
function itemError(item: JobItemView): ErrorData | undefined {
  if (item.state === 'unknown') {
    return {
      kind: 'outcome-unknown',
      code: 'job.outcomeUnknown',
      params: { label: item.label },
      requestId: item.requestId,
      serviceMessage: item.error?.serviceMessage,
    }
  }
  if (item.state === 'failed' || item.state === 'skipped')
    return item.error ?? { kind: 'internal', code: 'error.internal' }
  return undefined
}

/**
 * `forAccount`: a screen that works across accounts ("Expiring soon") names the account of
 * its items; every other screen writes to the account it was made for.
 */
export function useWrite<N extends WriteEndpointName>(operation: N, forAccount?: AccountApi) {
  const api = forAccount ?? useAccountApi()
  const accounts = useAccountsStore()
  const busy = ref(false)
  const error = ref<ErrorData>()
  const job = shallowRef<JobView>()
  /** After a one-item write: where what the service kept differs from what was sent. */
  const serviceKept = shallowRef<ServiceKeptFinding[]>([])
  /**
   * A one-item write whose outcome was unknown, settled later by main's look in the service's log:
   * the screen that sent it is told (its error goes or becomes the refusal, a notice says which)
   * and may reload what it shows (`onSettled`).
   */
  const settled = shallowRef<JobItemView>()
  const settledListeners: ((item: JobItemView) => void)[] = []
  const jobsStore = useJobsStore()
  let stopFollowing: (() => void) | undefined
  function followUnknown(jobId: string, label: string) {
    stopFollowing?.()
    stopFollowing = watch(
      () => jobsStore.byId(jobId)?.items[0],
      (item) => {
        if (!item || item.state === 'unknown') return
        stopFollowing?.()
        stopFollowing = undefined
        settled.value = item
        error.value = item.state === 'done' ? undefined : itemError(item)
        if (item.state === 'done') serviceKept.value = item.serviceKept ?? []
        notify(t(item.state === 'done' ? 'jobs.settledDone' : 'jobs.settledFailed', { label: item.label || label }))
        for (const listener of settledListeners) listener(item)
      },
    )
  }
  onScopeDispose(() => stopFollowing?.())

  /** Sends the items as one job; resolves with the job when it has ended, or undefined if refused or not confirmed. */
  async function runJob(
    items: JobItems<N>,
    confirmation?: Confirmation,
    opts: JobOptions & {
      /** Called once the user confirmed, before the job runs. */ onStarted?: (job: JobView) => void
    } = {},
  ): Promise<JobView | undefined> {
    if (busy.value) return undefined
    busy.value = true
    error.value = undefined
    try {
      const prepared = await api.prepare(operation, items, {
        concurrency: opts.concurrency,
        secondSend: opts.secondSend,
        purpose: opts.purpose,
      })
      if (!prepared.ok) return void (error.value = prepared.error)
      const pending = prepared.value.job
      // Asked when the screen asks (a bulk change), and whenever main says the job waits for a
      // confirmation: a paid, ownership or irreversible operation, or any write of an account
      // whose safety level confirms every write.
      const account = accounts.accounts.find((a) => a.id === pending.accountId)
      const question: StartQuestion | undefined =
        confirmation || pending.confirm
          ? {
              ...(confirmation ?? writeConfirmation(operation, pending.items.length)),
              account: accountMarks(account, pending.accountName),
              accountNameToType: pending.confirmByName ? (nameToType(account) ?? pending.accountName) : undefined,
              items: pending.items.map((it) => ({ label: it.label, effect: effectText(it.effect) })),
            }
          : undefined
      const started = await confirmAndStart([prepared.value], question, () => {
        job.value = pending
        opts.onStarted?.(pending)
      })
      const r = started?.[0]?.result
      if (!r) return undefined
      if (!r.ok) return void (error.value = r.error)
      job.value = r.value
      return r.value
    } finally {
      busy.value = false
    }
  }

  /** One item: resolves with what the service kept, or undefined (the error says why). */
  async function run(
    params: ApiParams<N>,
    confirmation?: Confirmation,
    label?: string,
    opts: ItemOptions = {},
  ): Promise<EndpointResult<N> | undefined> {
    serviceKept.value = []
    const { guard, overRule, ...jobOpts } = opts
    const done = await runJob([{ params, label, guard, overRule }], confirmation, jobOpts)
    const item = done?.items[0]
    if (!item) return undefined
    const problem = itemError(item)
    if (problem) {
      error.value = problem
      settled.value = undefined
      if (item.state === 'unknown' && done) followUnknown(done.id, item.label)
      return undefined
    }
    serviceKept.value = item.serviceKept ?? []
    // Main decoded the service's answer with this operation's schema (src/main/http).
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- main decoded the answer with this operation's schema; the job's item carries it as unknown
    return item.result as EndpointResult<N>
  }

  /** One item as a Result (for code built on Results, such as the guarded save). */
  async function send(
    params: ApiParams<N>,
    label?: string,
    opts: ItemOptions = {},
  ): Promise<Result<EndpointResult<N>>> {
    const value = await run(params, undefined, label, opts)
    return value !== undefined
      ? { ok: true, value }
      : { ok: false, error: error.value ?? { kind: 'internal', code: 'error.internal' } }
  }

  const onSettled = (listener: (item: JobItemView) => void) => void settledListeners.push(listener)

  return { run, runJob, send, busy, error, job, serviceKept, settled, onSettled }
}
