/**
 * The sandbox's checks of contacts and DS records beyond the kinds of value its request model
 * (operations.ts) checks: what a real service rejects with 400. The words are the sandbox's own, since they
 * stand for the service's messages, which the app shows as they come. Records are checked in
 * records.ts, from the service's own documentation, not with the app's rules.
 */
import { firstContactIssue, checkDsRecord, type ContactLike } from '../shared/service/validation'

export function checkContact(contact: ContactLike): string | undefined {
  const issue = firstContactIssue(contact)
  return issue ? `Invalid contact ${issue.path} (${issue.code}).` : undefined
}

export function checkDs(r: { keytag: number; alg: number; digesttype: number; digest: string }): string | undefined {
  const finding = checkDsRecord(r)
  return finding ? `Invalid DS record (${finding.code}).` : undefined
}
