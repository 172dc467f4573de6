/**
 * The sandbox's checks beyond the endpoint table's structural schemas: what a real service
 * rejects with 400. The rules are the app's shared ones (the records model and its
 * validators, the contact and DS rules); only the words are the sandbox's own, since they
 * stand for the service's messages, which the app shows as they come.
 */
import { parse } from '../shared/dns/records'
import { validateRows, type DnsCode } from '../shared/dns/validate'
import { firstContactIssue, checkDsRecord, type ContactLike } from '../shared/validation'

/** Problems the service is not known to refuse: it stores duplicates and leaves CNAME rules to the resolver. */
const TOLERATED: ReadonlySet<DnsCode> = new Set(['dns.duplicate', 'dns.cname.exclusive'])

/** Checks a `records` string line by line; blank lines and comments are stored as they are. */
export function checkRecords(records: string): string | undefined {
  const rows = parse(records)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]
    if (row?.kind !== 'raw' || row.reason !== 'unknown') continue
    const type = /^\s*(\S+)\s+\S+\s+\S/.exec(row.text)?.[1]
    return type ? `Unknown record type "${type}" on line ${i + 1}.` : `Malformed record on line ${i + 1}: expected "type host value".`
  }
  const issue = validateRows(rows).find((x) => !TOLERATED.has(x.code))
  return issue ? `Invalid record on line ${issue.index + 1} (${issue.code}).` : undefined
}

export function checkContact(contact: ContactLike): string | undefined {
  const issue = firstContactIssue(contact)
  return issue ? `Invalid contact ${issue.path} (${issue.code}).` : undefined
}

export function checkDs(r: { keytag: number; alg: number; digesttype: number; digest: string }): string | undefined {
  const finding = checkDsRecord(r)
  return finding ? `Invalid DS record (${finding.code}).` : undefined
}
