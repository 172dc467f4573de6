/**
 * What every command of hosting-admin shares: its exit codes, its output, the account it acts
 * for, and the one way it writes (a job prepared, confirmed by the command line's own flags,
 * started and waited for), so a write from a script meets the window's rules.
 */
import type { AccountView } from '@shared/accounts'
import type { ErrorData } from '@shared/errors'
import { AppClosed } from './app-closed'
import type { JobRequest, JobView, LeftOutItem } from '@shared/jobs'
import type { WriteEndpointName } from '@shared/endpoints/table'
import type { Session } from './session'
import type { Texts } from './text'
import type { MessageKey } from '@shared/i18n/catalogue'
import type { Params } from '@shared/i18n/format'

/** 5: every target was done but those left out because another write held them (--skip-busy). */
export const EXIT = { done: 0, failed: 1, badInput: 2, unknown: 3, differs: 4, doneWithSkips: 5 } as const

export interface Io {
  out(text: string): void
  err(text: string): void
  env: NodeJS.ProcessEnv
  /** Aborted when the process is asked to stop (SIGINT, SIGTERM): a long wait ends cleanly. */
  signal?: AbortSignal
}

export interface Context {
  session: Session
  say: Texts
  io: Io
  json: boolean
  dataDir: string
  /**
   * Where the built store worker is (beside out/main/cli.js): a session a command opens later for
   * itself (dns served, ddns update recording in history) takes it from here, since the session's
   * module is a lazily loaded chunk in another folder. Unset in process (the tests' own sessions).
   */
  storeWorkerUrl?: URL
}

/**
 * A refusal of the command line itself (exit 2), worded from the catalogue; nothing was sent.
 * Its code and parameters are the catalogue's key (for --json); a text made of several lines
 * has the general code.
 */
export class BadInput extends Error {
  constructor(
    readonly text: string,
    readonly code: string = 'cli.badInput',
    readonly params: Params = {},
  ) {
    super(text)
  }

  static of(say: Texts, key: MessageKey, params: Params = {}): BadInput {
    return new BadInput(say.t(key, params), key, params)
  }
}

/** A call's error: the command ends with it (exit 1, or 3 when the outcome is unknown). */
export class Failed extends Error {
  constructor(readonly error: ErrorData) {
    super(error.code)
  }
}

export function failed(c: Context, error: ErrorData): number {
  if (c.json)
    c.io.out(
      JSON.stringify({
        ok: false,
        error: { kind: error.kind, code: error.code, params: error.params, requestId: error.requestId },
      }),
    )
  // No desktop session (cron, a systemd timer, certbot renew) and no key given another way: what
  // to give is the command's own options, not the app's advice about the keychain (exit 2).
  if (error.code === 'keychain.noSecretService' && !c.session.viaApp) {
    c.io.err(c.say.t('cli.noKeySource'))
    return EXIT.badInput
  }
  c.io.err(c.say.error(error))
  return error.kind === 'outcome-unknown' ? EXIT.unknown : EXIT.failed
}

/**
 * The account the command acts for: the one --account names, else the app's active one. The
 * built-in demo (a sandbox in this process whose changes are thrown away) only when asked for,
 * by --demo or by its name or id: a data folder with no account, or a window left on the demo,
 * would otherwise make a script's writes "succeed" where nothing is kept.
 */
export async function chooseAccount(c: Context, wanted: string | undefined, demoAsked = false): Promise<AccountView> {
  const r = await c.session.call('accounts.list', {})
  if (!r.ok) throw new Failed(r.error)
  const all = r.value.accounts
  const names = all.map((a) => a.name).join(', ')
  if (demoAsked) {
    const demo = all.find((a) => a.demo)
    if (!demo || (wanted !== undefined && wanted !== demo.name && wanted !== demo.id))
      throw BadInput.of(c.say, 'cli.demoAndAccount')
    return demo
  }
  const found =
    wanted === undefined
      ? all.find((a) => a.id === r.value.activeId)
      : (all.find((a) => a.name === wanted) ?? all.find((a) => a.id === wanted))
  if (!found) throw BadInput.of(c.say, 'cli.noAccount', { name: wanted ?? '', names })
  if (found.demo && wanted === undefined) {
    const real = all.filter((a) => !a.demo)
    throw real.length === 0
      ? BadInput.of(c.say, 'cli.noAccountYet', { folder: c.dataDir })
      : BadInput.of(c.say, 'cli.demoActive', { names: real.map((a) => a.name).join(', ') })
  }
  return found
}

export async function readZone(c: Context, accountId: string, domain: string) {
  const r = await c.session.call('domains.dns.get', { accountId, domain })
  if (!r.ok) throw new Failed(r.error)
  return r.value
}

/** How the command line confirms what the window asks for in a dialog. */
export interface Confirmation {
  /** --yes: for an account that confirms every write, and for what costs money. */
  yes: boolean
  /** --confirm-account: a production account's name, checked by main as the typed name is. */
  typedName: string | undefined
}

/**
 * Prepares a job, refuses it (discarded, exit 2) when a confirmation it needs was not given on
 * the command line, else starts it and waits for its end. Each item's outcome comes back as the
 * runner settled it; main journals, guards and records history as for the window. With
 * `skipBusy`, the items whose target another write holds are left out (`leftOut`, each with who
 * holds it) and the rest is sent; nothing is sent when every one was left out.
 */
export async function runWrite<N extends WriteEndpointName>(
  c: Context,
  account: AccountView,
  operation: N,
  items: JobRequest['items'],
  confirmation: Confirmation,
  opts: { skipBusy?: boolean } = {},
): Promise<{ ok: true; job: JobView; leftOut: LeftOutItem[] } | { ok: false; error: ErrorData }> {
  const prepared = await c.session.call('jobs.prepare', {
    accountId: account.id,
    operation,
    items,
    purpose: 'cli',
    ...(opts.skipBusy ? { skipBusy: true } : {}),
  })
  if (!prepared.ok) return prepared
  const job = prepared.value.job
  const leftOut = prepared.value.leftOut ?? []
  const discard = () => c.session.call('jobs.discard', { jobId: job.id })
  // The account's name typed is the stronger confirmation and stands for --yes; main checks it.
  if (job.confirmByName && confirmation.typedName === undefined) {
    await discard()
    throw BadInput.of(c.say, 'cli.needsName', { account: account.name })
  }
  if (job.confirm && !job.confirmByName && !confirmation.yes) {
    await discard()
    throw BadInput.of(c.say, 'cli.needsYes', { account: account.name })
  }
  if (job.items.length === 0) {
    await discard()
    return { ok: true, job, leftOut }
  }
  const started = await c.session.call('jobs.start', {
    jobId: job.id,
    ...(prepared.value.token ? { token: prepared.value.token } : {}),
    ...(job.confirmByName ? { accountName: confirmation.typedName } : {}),
  })
  if (!started.ok) {
    await discard()
    // Main checked the name given against the account's: given but not the name is bad input (exit 2), not a failure.
    if (started.error.code === 'job.accountNameRequired' && confirmation.typedName !== undefined) {
      throw BadInput.of(c.say, 'cli.wrongName', { account: account.name, given: confirmation.typedName })
    }
    return started
  }
  try {
    return { ok: true, job: await c.session.ended(started.value), leftOut }
  } catch (err) {
    // The app closed while it ran the job: its Writes will say how it ended.
    if (err instanceof AppClosed) return { ok: false, error: err.error }
    throw err
  }
}

/**
 * A write refused before anything was sent because another write to the same target is on its
 * way (the window's, or another command's through the app): its turn comes when that one ends.
 * An earlier write whose outcome is unknown (job.targetUnknown) is not waited for: it stays so
 * until the user looks at it.
 */
export const targetBusy = (e: ErrorData): boolean =>
  e.kind === 'busy' && (e.code === 'job.targetBusy' || e.code === 'job.targetBusyBy' || e.code === 'job.holdLost')

/** A guarded zone save refused, nothing sent, because the zone changed between its read and its send (team mode: naming who changed it). */
export const zoneMoved = (e: ErrorData): boolean =>
  e.kind === 'busy' && (e.code === 'dns.changedSincePlan' || e.code === 'dns.changedSincePlanBy')

/** Waits `ms`; false when the process was asked to stop meanwhile. */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return false
  return new Promise((resolve) => {
    const done = (waited: boolean) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      resolve(waited)
    }
    const onAbort = () => done(false)
    const timer = setTimeout(() => done(true), Math.max(0, ms))
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** One item's end as an error, when it did not end done. */
export function itemError(item: JobView['items'][number] | undefined, label: string): ErrorData | undefined {
  if (item?.state === 'done') return undefined
  if (item?.state === 'unknown')
    return { kind: 'outcome-unknown', code: 'job.outcomeUnknown', params: { label }, requestId: item.requestId }
  return item?.error ?? { kind: 'internal', code: 'job.interrupted' }
}
