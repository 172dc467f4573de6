/**
 * The domain list's nameserver column: a domain's nameservers as one text, and that text in lower case for the filter.
 * Made per list taken over, one pair of texts per distinct set of nameservers, shared by every domain that has it: a
 * portfolio holds a few hundred sets, and made per domain they were 137,142 strings (7.7 MB) of the window's 72 MB
 * heap at 100,000 domains, a heap whose full collections held up frames of a scroll (issue 54).
 */
export interface NameserverText {
  /** The nameservers as shown: `ns1.example.net, ns2.example.net`. */
  text: string
  /** The same in lower case, what the `ns:` filter searches. */
  search: string
}

/** A new mapper for one list: the texts it makes are shared within it and let go with it. */
export function nameserverTexts(): (nameservers: readonly string[]) => NameserverText {
  const made = new Map<string, NameserverText>()
  return (nameservers) => {
    const text = nameservers.join(', ')
    let shared = made.get(text)
    if (shared === undefined) made.set(text, (shared = { text, search: text.toLowerCase() }))
    return shared
  }
}
