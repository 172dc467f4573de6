/**
 * Zone health on the command line: the findings of a plan (dns plan|check|apply), written to
 * stderr as messages (they never change the exit code: a finding never blocks a save), and in
 * the JSON result as `health`. DNS is asked through the machine's resolver, or the ones
 * HOSTING_ADMIN_RESOLVERS names (`127.0.0.1:5353,192.0.2.53`); --offline asks nothing.
 */
import { planHealth } from '@shared/dns/health/asked'
import type { HealthFinding } from '@shared/dns/health/rules'
import type { Row } from '@shared/dns/records'
import { resolverAsker, resolversOf } from '../main/dns-health/resolver-asker'
import { healthText } from '@shared/i18n/health-text'
import type { Context } from './context'

export async function healthOfPlan(
  c: Context,
  domain: string,
  before: Row[],
  after: Row[],
  offline: boolean,
): Promise<HealthFinding[]> {
  const ask = offline ? undefined : resolverAsker({ servers: resolversOf(c.io.env), timeoutMs: 2000 })
  return await planHealth(before, after, domain, ask)
}

/** The findings as lines: severity, new or not, the finding, its record, and how to fix it. */
export function healthLines(c: Context, domain: string, findings: readonly HealthFinding[]): string[] {
  if (findings.length === 0) return [c.say.t('cli.health.none', { domain })]
  const lines = [c.say.t('cli.health.title', { domain })]
  for (const f of findings) {
    const text = healthText({ tCode: c.say.code }, f)
    const mark = f.introduced ? ` [${c.say.t('cli.health.introduced')}]` : ''
    lines.push(
      `! ${c.say.code(`health.severity.${f.severity}`)}${mark} ${f.rule}: ${text.title}`,
      `    ${text.record}`,
      `    ${text.why}`,
      `    ${c.say.t('cli.health.fix')} ${text.fix}`,
    )
  }
  return lines
}
