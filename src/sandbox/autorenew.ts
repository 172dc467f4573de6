/** Auto-renewal in force, as the stand-in keeps it: on when the account-wide setting or the item's own is on (see shared/autorenew.ts). */
export const effectiveAutorenew = (all: number, own: number): 0 | 1 => (all || own ? 1 : 0)
