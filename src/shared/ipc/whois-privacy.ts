/**
 * The WHOIS privacy flag of every domain: all that the domain list's column needs of the
 * account-wide WHOIS list. That list carries each domain's contacts too (about 10 MB for 10,000
 * domains), which crossing to the window, parsed there and kept in its heap, made tasks of over
 * 50 ms while the list was scrolled (issue 40); main reads and keeps the whole list, and sends
 * only this.
 */
export interface WhoisPrivacyItem {
  domainname: string
  /** As the service writes it: '1' on, '0' off. */
  whoisproxy: string
}

export interface WhoisPrivacyList {
  items: WhoisPrivacyItem[]
  /** When it was read (ISO 8601), when it comes from the portfolio store; null when read just now. */
  readAt: string | null
  /** Whether every page of it was read. */
  complete: boolean
}

/**
 * The stored flags carried in parts, as any stored list (issue 54): at 100,000
 * domains one message of them is copied into the window in one task.
 */
export interface WhoisPrivacyPart extends WhoisPrivacyList {
  readAt: string
  part: number
  parts: number
}

/** The two fields of each item of a WHOIS list (items of another shape are left out). */
export function whoisPrivacyOf(items: readonly object[]): WhoisPrivacyItem[] {
  const out: WhoisPrivacyItem[] = []
  for (const item of items) {
    if (
      'domainname' in item &&
      'whoisproxy' in item &&
      typeof item.domainname === 'string' &&
      typeof item.whoisproxy === 'string'
    ) {
      out.push({ domainname: item.domainname, whoisproxy: item.whoisproxy })
    }
  }
  return out
}
