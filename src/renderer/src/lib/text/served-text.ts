/**
 * A zone's comparison with its nameservers in words (issue 53 point 1): its outcome, the one
 * line under the zone's title, and why it could not be compared.
 */
import { isServedDifference, type ServedOutcome, type ServedResult } from '@shared/dns/health/served'
import { formatWhen, t, tCode } from '../../i18n'

export const outcomeText = (o: ServedOutcome | 'none' | undefined): string => t(`served.outcome.${o ?? 'none'}`)

/** The nameserver failures, in words: why nothing could be compared. */
const whyNotCompared = (r: ServedResult): string =>
  r.findings
    .filter((f) => !isServedDifference(f) && f.code !== 'served.delegatedElsewhere')
    .map((f) => tCode(f.code, f.params))
    .join(' ')

export function servedStateLine(r: ServedResult | undefined): string {
  if (!r) return t('served.state.none')
  const time = formatWhen(r.at)
  switch (r.outcome) {
    case 'same':
      return t('served.state.same', { time })
    case 'differs':
      return t('served.state.differs', { time, count: r.findings.filter(isServedDifference).length })
    case 'delegated': {
      const ns = r.findings.find((f) => f.code === 'served.delegatedElsewhere')?.params.ns ?? ''
      return t('served.state.delegated', { time, ns })
    }
    case 'unknown':
      return t('served.state.unknown', { time, why: whyNotCompared(r) })
  }
}

/** The "type name" keys of the records a nameserver serves differently, as the editor's rows name them. */
export const differingRecords = (r: ServedResult | undefined): ReadonlySet<string> =>
  new Set(
    (r?.findings ?? [])
      .filter(isServedDifference)
      .map((f) => `${String(f.params.type).toLowerCase()} ${String(f.params.name).toLowerCase()}`),
  )
