/**
 * How a server is named in a path ({webid} of /{servers}/{webid}...): the service's server
 * documentation takes either its numeric id (webid) or its name (webname, the hosting account
 * name). Plain code with no library, so the endpoint table, the renderer's routes and links,
 * and main share one rule.
 */

/**
 * The characters of a server path value: a letter or digit, then letters, digits, hyphens or
 * underscores, 64 at most (the table's limit on a new server's name). The sandbox makes names
 * of lowercase letters, digits and hyphens; upper case and underscores are allowed too so a
 * name the live service gives is never refused. Nothing here can be ".", "..", empty, or hold
 * "/ \ ? # %" or a control character, so every such value is one path segment.
 * A string, not a RegExp, because the renderer's route puts it inside its path pattern.
 */
export const SERVER_REF_PATTERN = '[A-Za-z0-9][A-Za-z0-9_-]{0,63}'

const SERVER_REF = new RegExp(`^(?:${SERVER_REF_PATTERN})$`)
const DIGITS = /^\d+$/

/** Whether a value can stand in a server path: an id or a name. */
const isServerRef = (v: string): boolean => SERVER_REF.test(v)

/** Digits are an id, for the service as for the app: a name of digits only cannot be told from one. */
export const isServerId = (v: string): boolean => DIGITS.test(v)

/**
 * What links and calls name a server by: its name, which the user knows it by and which reads
 * in an address; its id when the name cannot stand in a path or would be read as an id.
 */
export function serverRefOf(s: { webid: string; webname: string }): string {
  return isServerRef(s.webname) && !isServerId(s.webname) ? s.webname : s.webid
}
