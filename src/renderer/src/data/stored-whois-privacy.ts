/**
 * The WHOIS privacy flags as stored, carried in parts like any stored list (stored-parts.ts): at
 * 100,000 domains one message of them is copied into the window in one task, a part of 2,000 is
 * not (issue 54: no task over 50 ms). Loaded when first asked for: the window's first script has no room for it (its size).
 */
import type { WhoisPrivacyItem, WhoisPrivacyList, WhoisPrivacyPart } from '@shared/ipc/whois-privacy'
import type { Call, Result } from '@shared/ipc/contract'
import { carryInParts, type CarriedPart } from './stored-parts'

/** Main answers a part when one is asked for; anything else is as if nothing were stored. */
const isPart = (v: WhoisPrivacyList | WhoisPrivacyPart): v is WhoisPrivacyPart => 'parts' in v && v.readAt !== null

/** `call`: the window's bridge (a test: a client of main's router); `callId`: a new call's id. */
export function storedWhoisPrivacy(
  accountId: string,
  call: Call,
  callId: () => string,
): Promise<Result<WhoisPrivacyList | null>> {
  const ask = async (part: number): Promise<Result<CarriedPart<WhoisPrivacyItem> | null>> => {
    const r = await call('details.whoisPrivacy', { accountId, callId: callId(), from: 'store', part })
    if (!r.ok) return r
    return { ok: true, value: r.value && isPart(r.value) ? r.value : null }
  }
  return carryInParts(ask)
}
