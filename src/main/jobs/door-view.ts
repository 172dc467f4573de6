/**
 * Jobs as another process sees them through the app's door (cli-server.ts): the window's jobs
 * too, since the runner and its watchers are shared, but never the user's secrets they carry
 * (a transfer code, a dynamic DNS password in the parameters, an answer or a logged answer),
 * nor the service's words that repeat one.
 * The command never needs them: it knows its own parameters, and a job of the window is none of
 * its business beyond its state.
 */
import type { JobItemView, JobView } from '@shared/jobs'
import {
  journaledError,
  loggedTextWithoutSecrets,
  paramsWithoutSecrets,
  secretsOf,
  textsWithoutJobSecrets,
  withoutJobSecrets,
  withoutSecrets,
} from './ledger/at-rest'

/**
 * An item without the user's secrets: its parameters without them, and every text the service
 * gave (its answer, its error's words and parameters, what it kept, its logged answer) checked
 * against every secret of the job, as the journal checks them (a service error that repeats the
 * transfer code it refused).
 */
function itemWithoutSecrets(it: JobItemView, secrets: readonly string[]): JobItemView {
  const out: JobItemView = { ...it, params: paramsWithoutSecrets(it.params) }
  if (it.result !== undefined) out.result = textsWithoutJobSecrets(withoutSecrets(it.result), secrets)
  if (it.error) out.error = journaledError(it.error, secrets)
  if (it.serviceKept) {
    out.serviceKept = it.serviceKept.map((f) => ({
      ...f,
      params: Object.fromEntries(
        Object.entries(f.params).map(([k, v]) => [k, typeof v === 'string' ? withoutJobSecrets(v, secrets) : v]),
      ),
    }))
  }
  if (it.log) {
    const { entry, error } = it.log
    out.log = {
      ...it.log,
      ...(entry ? { entry: { ...entry, response: loggedTextWithoutSecrets(entry.response, secrets) } } : {}),
      ...(error ? { error: journaledError(error, secrets) } : {}),
    }
  }
  return out
}

export function jobWithoutSecrets(job: JobView): JobView {
  const secrets = secretsOf(job.items.map((it) => it.params))
  return { ...job, items: job.items.map((it) => itemWithoutSecrets(it, secrets)) }
}

type Bag = Record<string, unknown>
const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v)
/** A job as main's runner makes it (the answers of the `jobs.*` channels are main's own values). */
function isJobView(v: unknown): v is JobView {
  return (
    isBag(v) &&
    typeof v.id === 'string' &&
    typeof v.operation === 'string' &&
    Array.isArray(v.items) &&
    v.items.every((it) => isBag(it) && isBag(it.params))
  )
}

/** An answer of a `jobs.*` channel with every job in it (a list, `{ job, token }`, one job) without secrets. */
export function jobsAnswerWithoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jobsAnswerWithoutSecrets)
  if (isJobView(value)) return jobWithoutSecrets(value)
  if (isBag(value) && 'job' in value) return { ...value, job: jobsAnswerWithoutSecrets(value.job) }
  return value
}
