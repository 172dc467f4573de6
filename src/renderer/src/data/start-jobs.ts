/**
 * The one way the renderer starts prepared write jobs, used by every screen that writes (a
 * view's write, a retry from the Writes screen, a bulk DNS change): main froze each job when it
 * was prepared; the user is asked once (when there is a question), a "no" discards every job,
 * and a "yes" starts each with its token and the account name as typed, which main compares
 * with the account's. A job that main will not start is discarded: nothing of it was sent.
 */
import type { JobView } from '@shared/jobs'
import { invoke, type Result } from './bridge'
import { useJobsStore } from '../stores/jobs'
import { confirmTyped, type ConfirmRequest, type TypedNames } from '../lib/confirm'

/** A job as main prepared it, with the token a confirmed job starts with. */
export interface PreparedJob {
  job: JobView
  token?: string | undefined
}

/** What the user is asked; undefined when nothing needs asking. */
export type StartQuestion = Omit<ConfirmRequest, 'resolve'>

/** A job and main's answer to its start (the job as it now runs, or why it was refused). */
export interface StartedJob {
  job: JobView
  result: Result<JobView>
}

/** Discards prepared jobs (a "no", or one of several that could not be prepared). */
export async function discardJobs(prepared: readonly PreparedJob[]): Promise<void> {
  await Promise.all(prepared.map((p) => invoke('jobs.discard', { jobId: p.job.id })))
}

/** The name typed for a job's account: in its own field for a write to several accounts. */
function typedNameFor(
  job: JobView,
  question: StartQuestion | undefined,
  typed: TypedNames | undefined,
): string | undefined {
  if (!job.confirmByName) return undefined
  if (!question || !typed) return ''
  if (question.accounts)
    return typed.accountNames[question.accounts.findIndex((a) => a.accountId === job.accountId)] ?? ''
  return typed.accountName
}

/**
 * Asks (if `question`), then starts every job. Resolves undefined when the user said no (the
 * jobs are discarded), else with each job's start. `beforeStart` runs once, after the yes and
 * before anything is started: the screen freezes what it shows there.
 */
export async function confirmAndStart(
  prepared: readonly PreparedJob[],
  question: StartQuestion | undefined,
  beforeStart?: () => void,
): Promise<StartedJob[] | undefined> {
  let typed: TypedNames | undefined
  if (question) {
    const answer = await confirmTyped(question)
    if (!answer.ok) {
      await discardJobs(prepared)
      return undefined
    }
    typed = answer.typed
  }
  beforeStart?.()
  const jobs = useJobsStore()
  return Promise.all(
    prepared.map(async (p): Promise<StartedJob> => {
      const accountName = typedNameFor(p.job, question, typed)
      const result = await invoke('jobs.start', {
        jobId: p.job.id,
        ...(p.token ? { token: p.token } : {}),
        ...(accountName !== undefined ? { accountName } : {}),
      })
      if (result.ok) jobs.put(result.value)
      // Refused before anything was sent (the account made read-only meanwhile, the preparation expired).
      else await invoke('jobs.discard', { jobId: p.job.id })
      return { job: p.job, result }
    }),
  )
}
