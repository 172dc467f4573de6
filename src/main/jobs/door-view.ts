/**
 * Jobs as another process sees them through the app's door (cli-server.ts): the window's jobs
 * too, since the runner and its watchers are shared, but never the user's secrets they carry
 * (a transfer code, a dynamic DNS password in the parameters, an answer or a logged answer).
 * The command never needs them: it knows its own parameters, and a job of the window is none of
 * its business beyond its state.
 */
import type { JobItemView, JobView } from '../../shared/jobs'
import { loggedTextWithoutSecrets, paramsWithoutSecrets, withoutSecrets } from './at-rest'

function itemWithoutSecrets(it: JobItemView): JobItemView {
  const out: JobItemView = { ...it, params: paramsWithoutSecrets(it.params) }
  if (it.result !== undefined) out.result = withoutSecrets(it.result)
  if (it.log?.entry) out.log = { ...it.log, entry: { ...it.log.entry, response: loggedTextWithoutSecrets(it.log.entry.response) } }
  return out
}

export function jobWithoutSecrets(job: JobView): JobView {
  return { ...job, items: job.items.map(itemWithoutSecrets) }
}

type Bag = Record<string, unknown>
const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v)
/** A job as main's runner makes it (the answers of the `jobs.*` channels are main's own values). */
function isJobView(v: unknown): v is JobView {
  return isBag(v) && typeof v.id === 'string' && typeof v.operation === 'string' && Array.isArray(v.items) && v.items.every((it) => isBag(it) && isBag(it.params))
}

/** An answer of a `jobs.*` channel with every job in it (a list, `{ job, token }`, one job) without secrets. */
export function jobsAnswerWithoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jobsAnswerWithoutSecrets)
  if (isJobView(value)) return jobWithoutSecrets(value)
  if (isBag(value) && 'job' in value) return { ...value, job: jobsAnswerWithoutSecrets(value.job) }
  return value
}
