import { HOSTNAME } from '../../../shared/validation'

/** Names typed in any mix of commas, spaces and new lines, lower-cased and without duplicates. */
export function parseNames(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((n) => n.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean))]
}

/** sld and tld of a name (the tld is everything after the first dot: co.jp stays whole). */
export function splitName(name: string): { sld: string; tld: string } | undefined {
  const n = name.trim().toLowerCase()
  const i = n.indexOf('.')
  if (i <= 0 || !HOSTNAME.test(n)) return undefined
  return { sld: n.slice(0, i), tld: n.slice(i + 1) }
}

