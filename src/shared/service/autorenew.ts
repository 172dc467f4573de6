/**
 * Which auto-renewal setting is in force, and why. The service reports three flags for a domain
 * (or a server): `autorenew_all` (the account's setting for every one of them), the item's own
 * (`autorenew_domain` / `autorenew_server`), and `autorenew`. The spec does not define them
 * against each other; this app reads `autorenew` as what is in force: on when the account-wide
 * or the item's own setting is on. Every screen tells the same story from this one function.
 */

/** Why auto-renewal is on or off. */
export type AutorenewReason =
  /** Only the account-wide setting is on. */
  | 'account'
  /** Only the item's own setting is on. */
  | 'own'
  /** Both are on. */
  | 'both'
  /** Both are off. */
  | 'none'
  /** The service's answer holds only the effective flag. */
  | 'reported'
  /** The service's effective flag disagrees with its two settings: its flag is shown, and the disagreement. */
  | 'disagrees'
  /** Nothing in the answer says. */
  | 'unknown'

export interface AutorenewInForce {
  on: boolean | undefined
  reason: AutorenewReason
}

/** Any non-zero value is on: the service writes 10 for "on" in the two settings and 1 in `autorenew`. */
const flag = (v: number | undefined): boolean | undefined => (v === undefined ? undefined : v !== 0)
/** Whether one auto-renewal setting is on, as the service writes it (any non-zero number). */
export const settingOn = (v: number | undefined): boolean => flag(v) === true

export function autorenewInForce(r: {
  autorenew?: number | undefined
  autorenew_all?: number | undefined
  own?: number | undefined
}): AutorenewInForce {
  const reported = flag(r.autorenew)
  const all = flag(r.autorenew_all)
  const own = flag(r.own)
  if (all === undefined || own === undefined) {
    if (reported !== undefined) return { on: reported, reason: 'reported' }
    if (all || own) return { on: true, reason: all ? 'account' : 'own' }
    return { on: undefined, reason: 'unknown' }
  }
  const computed = all || own
  if (reported !== undefined && reported !== computed) return { on: reported, reason: 'disagrees' }
  return { on: computed, reason: all && own ? 'both' : all ? 'account' : own ? 'own' : 'none' }
}

export const domainAutorenew = (d: {
  autorenew?: number | undefined
  autorenew_all?: number | undefined
  autorenew_domain?: number | undefined
}) => autorenewInForce({ autorenew: d.autorenew, autorenew_all: d.autorenew_all, own: d.autorenew_domain })

export const serverAutorenew = (s: {
  autorenew?: number | undefined
  autorenew_all?: number | undefined
  autorenew_server?: number | undefined
}) => autorenewInForce({ autorenew: s.autorenew, autorenew_all: s.autorenew_all, own: s.autorenew_server })
