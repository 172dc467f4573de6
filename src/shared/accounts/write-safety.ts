/**
 * An account's write safety level (no validation library here: the window's first script uses it).
 */

/**
 * How an account's writes are guarded, TablePlus's Alert and Safe modes as the model: 'none',
 * only paid, ownership and irreversible operations are confirmed (as for every account);
 * 'confirm', every write is confirmed; 'name', every write's confirmation asks for the account's
 * name typed in full. Lowering it needs the name too, checked by main.
 */
export const WRITE_SAFETY = ['none', 'confirm', 'name'] as const
export type WriteSafety = (typeof WRITE_SAFETY)[number]
/** The fields of a profile the level is read from (the older `confirmByName`, the tag). */
export interface SafetyFields {
  writeSafety?: WriteSafety | undefined
  confirmByName?: boolean | undefined
  environment: string
}

const SAFETY_RANK: Record<WriteSafety, number> = { none: 0, confirm: 1, name: 2 }

/** The account's level: as set; else as its older `confirmByName` said; else 'name' for production. */
export function writeSafetyOf(p: SafetyFields): WriteSafety {
  if (p.writeSafety) return p.writeSafety
  if (p.confirmByName !== undefined) return p.confirmByName ? 'name' : 'none'
  return p.environment === 'production' ? 'name' : 'none'
}

/** Whether going from one profile to the other guards writes less (a lower level, or read-only turned off). */
export function lowersSafety(
  from: SafetyFields & { readOnly: boolean },
  to: SafetyFields & { readOnly: boolean },
): boolean {
  return SAFETY_RANK[writeSafetyOf(to)] < SAFETY_RANK[writeSafetyOf(from)] || (from.readOnly && !to.readOnly)
}

/** Whether this account's confirmations ask for its name to be typed. */
export function confirmsByName(p: SafetyFields): boolean {
  return writeSafetyOf(p) === 'name'
}
