/**
 * A name as DNS carries it: each non-ASCII label as punycode. Its own module because the records'
 * checks (validate.ts) and the BIND files (bind.ts) both need it, and bind.ts asks the checks which
 * records a zone file can hold.
 */

const NON_ASCII = /[^\x00-\x7f]/
/**
 * A label whose ASCII characters are those a name's label may hold. Only such a label is read as a
 * host by URL: `bü/x` or `bü@x` would be cut at the `/` or `@` into another name, and `bü cher` throws.
 */
const LABEL_CHARACTERS = /^(?:[a-z0-9_-]|[^\x00-\x7f])+$/i

function asciiLabel(label: string): string {
  if (!NON_ASCII.test(label) || !LABEL_CHARACTERS.test(label)) return label
  try {
    return new URL(`http://${label}`).hostname
  } catch {
    // A label IDNA refuses stays as typed: not a name, which the checks then say.
    return label
  }
}

/** A host or domain name with each non-ASCII label as punycode (BIND refuses raw UTF-8 in names). */
export function asciiName(name: string): string {
  if (!NON_ASCII.test(name)) return name
  return name.split('.').map(asciiLabel).join('.')
}
