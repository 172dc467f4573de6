/**
 * Auto-renewal as the live service writes it: its own sample reads
 * `"autorenew":1,"autorenew_all":10,"autorenew_domain":10`, and its users turn it on with
 * `autorenew_domain: 10`. The two settings hold what was sent (0 off, anything else on); the
 * `autorenew` it reports is 1 when either is on.
 */
export const AUTORENEW_ON = 10
export const effectiveAutorenew = (all: number, own: number): 0 | 1 => (all !== 0 || own !== 0 ? 1 : 0)
