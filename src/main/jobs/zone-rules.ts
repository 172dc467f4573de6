/**
 * What main holds every zone save to, whatever screen or command asked for it (the editor, a
 * BIND import, a restore, a bulk change, the command line): the zone the change was planned from
 * comes with it (the guard), and a save over the safety rule (shared/dns/zone-safety) carries
 * the user's own confirmation of it; and no line may hide itself or another (a lone CR, a line
 * separator, a control character). Main applies these to what it is asked to send, so a save sent
 * straight over IPC gets no further than one from a screen.
 */
import { hiddenCharacterIn, HIDDEN_CHARACTER_CODE, type HiddenCharacter } from '@shared/dns/hidden-characters'
import { zoneSafety, type ZoneSafety } from '@shared/dns/zone-safety'
import type { ZoneGuard } from '@shared/jobs'
import type { ZoneInput } from '@shared/portfolio'

export type ZoneSaveVerdict =
  | { ok: true; safety: ZoneSafety }
  /** A line with a character that hides it or splits it unseen (shared/dns/hidden-characters): never sent, past every other rule. */
  | { ok: false; code: typeof HIDDEN_CHARACTER_CODE; hidden: HiddenCharacter }
  /** No guard: main cannot tell what the change was planned from, nor apply the rule. */
  | { ok: false; code: 'dns.guardRequired' }
  /** Over the rule, without its own confirmation. */
  | { ok: false; code: 'dns.overSafetyRule'; safety: ZoneSafety }

export function zoneSaveVerdict(
  domain: string,
  records: string,
  guard: ZoneGuard | undefined,
  overRuleConfirmed: boolean,
): ZoneSaveVerdict {
  const hidden = hiddenCharacterIn(records)
  if (hidden) return { ok: false, code: HIDDEN_CHARACTER_CODE, hidden }
  if (!guard) return { ok: false, code: 'dns.guardRequired' }
  const safety = zoneSafety(domain, guard.records, records)
  if (safety.needsOwnConfirmation && !overRuleConfirmed) return { ok: false, code: 'dns.overSafetyRule', safety }
  return { ok: true, safety }
}

/**
 * Whether the zone changed at the service since the plan: its records, and its TTL and ns_type
 * where the plan recorded them (a TTL changed elsewhere would otherwise be overwritten unseen).
 */
export function changedSincePlan(guard: ZoneGuard, current: ZoneInput | undefined): boolean {
  if (current?.records !== guard.records) return true
  if (guard.ttl !== undefined && current.ttl !== guard.ttl) return true
  if (guard.ns_type !== undefined && current.ns_type !== guard.ns_type) return true
  return false
}
