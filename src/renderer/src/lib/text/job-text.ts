/** A write job in words: its operation, each item's outcome, and the CSV of its results. */
import type { JobItemView, JobView } from '@shared/jobs'
import { errorLineOf, formatDate, t, tCode } from '../../i18n'
import { toCsv } from '../data/csv'
import { autorenewShort } from './autorenew-text'
import { serviceKeptText } from '@shared/i18n/service-kept-text'
import { autorenewInForce } from '@shared/service/autorenew'

export const operationLabel = (job: Pick<JobView, 'operation'>) => tCode(`operation.${job.operation}`)

export const itemStateLabel = (it: JobItemView) => tCode(`jobs.state.${it.state}`)

function field(result: unknown, key: string): unknown {
  if (typeof result !== 'object' || result === null) return undefined
  return Object.entries(result).find(([k]) => k === key)?.[1]
}
const flagOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

/** Auto-renewal as it stands after the write: which setting is in force. */
function autorenewAfter(job: Pick<JobView, 'operation'>, result: unknown): string {
  const own = job.operation === 'domains.autorenew.set' ? 'autorenew_domain' : 'autorenew_server'
  const inForce = autorenewInForce({
    autorenew: flagOf(field(result, 'autorenew')),
    autorenew_all: flagOf(field(result, 'autorenew_all')),
    own: flagOf(field(result, own)),
  })
  return t('jobs.autorenewNow', { state: autorenewShort(inForce) })
}

/** What the service changed on the way, appended to a done item's message. */
const serviceKeptSuffix = (it: JobItemView) =>
  it.serviceKept?.length ? ` ${it.serviceKept.map((f) => serviceKeptText({ t, tCode }, f)).join(' ')}` : ''

/** What happened to one item, in a sentence. */
export function itemMessage(job: Pick<JobView, 'operation'>, it: JobItemView): string {
  if (it.state === 'done') {
    const fromLog = it.resolvedFromLog ? ` ${t('jobs.fromLog')}` : ''
    const date = field(it.result, 'expirationdate')
    if (typeof date === 'string' && date) return `${t('domains.renewedTo', { date: formatDate(date) })}${fromLog}`
    if (job.operation === 'domains.autorenew.set' || job.operation === 'servers.autorenew.set')
      return `${autorenewAfter(job, it.result)}${fromLog}${serviceKeptSuffix(it)}`
    return `${it.resolvedFromLog ? t('jobs.doneFromLog') : t('common.done')}${serviceKeptSuffix(it)}`
  }
  if (it.state === 'unknown') {
    if (it.log?.status === 'not-found') return t('jobs.unknownNotInLog')
    if (it.log?.status === 'undecided') return t(`jobs.undecided.${it.log.reason ?? 'noBaseline'}`)
    if (it.log?.status === 'failed') return t('jobs.unknownLogUnreadable')
    return t('jobs.unknownChecking')
  }
  if (it.state === 'pending' || it.state === 'sending') return itemStateLabel(it)
  return it.error ? errorLineOf(it.error) : itemStateLabel(it)
}

/** The results as CSV: the service's own words where it gave them. */
export function jobCsv(job: JobView): string {
  return toCsv(
    [t('jobs.item'), t('domains.result'), t('domains.message'), t('common.requestId'), t('jobs.logEntry')],
    job.items.map((it) => [
      it.label,
      itemStateLabel(it),
      it.error?.serviceMessage ?? itemMessage(job, it),
      it.requestId ?? '',
      it.log?.entry?.request_id ?? '',
    ]),
  )
}
