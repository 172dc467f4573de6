import {
  checkDomainName,
  normalDomainName,
  splitDomain,
  type DomainNameCode,
  type Finding,
} from '@shared/service/validation'

/** Names typed in any mix of commas, spaces and new lines, lower-cased and without duplicates. */
export function parseNames(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map(normalDomainName)
        .filter(Boolean),
    ),
  ]
}

/**
 * sld and tld of a name that passes the shared domain-name rule (the tld is everything after the
 * first dot: co.jp stays whole); undefined for a name the rule refuses.
 */
export function splitName(name: string): { sld: string; tld: string } | undefined {
  return checkDomainName(name) ? undefined : splitDomain(normalDomainName(name))
}

/** Names split into those the rule accepts and those it refuses, each with its problem. */
export function sortNames(names: readonly string[]): {
  valid: string[]
  invalid: { name: string; problem: Finding<DomainNameCode> }[]
} {
  const valid: string[] = []
  const invalid: { name: string; problem: Finding<DomainNameCode> }[] = []
  for (const name of names) {
    const problem = checkDomainName(name)
    if (problem) invalid.push({ name, problem })
    else valid.push(name)
  }
  return { valid, invalid }
}
