/**
 * A name as DNS carries it: each non-ASCII label as punycode. Its own module because the records'
 * checks (validate.ts) and the BIND files (bind.ts) both need it, and bind.ts asks the checks which
 * records a zone file can hold.
 */

/** A host or domain name with each non-ASCII label as punycode (BIND refuses raw UTF-8 in names). */
export function asciiName(name: string): string {
  if (!/[^\x00-\x7f]/.test(name)) return name
  return name
    .split('.')
    .map((label) => (/[^\x00-\x7f]/.test(label) ? new URL(`http://${label}`).hostname : label))
    .join('.')
}
