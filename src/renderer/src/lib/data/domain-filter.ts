/**
 * What the domain list's filter box asks for. Plain text matches what its placeholder names
 * (the domain name or the registrar); a field the table does not show is asked for by name,
 * `ns:` for the nameservers, so a row never matches on text the user cannot see.
 */
const DOMAIN_FILTER_FIELDS = ['name', 'registrar', 'ns'] as const
type DomainFilterField = (typeof DOMAIN_FILTER_FIELDS)[number]

interface DomainFilter {
  /** The one field asked for by its prefix, or undefined for the name or the registrar. */
  field: DomainFilterField | undefined
  /** Lower case, trimmed; '' keeps every row. */
  text: string
}

const isField = (v: string): v is DomainFilterField => DOMAIN_FILTER_FIELDS.some((f) => f === v)

export function parseDomainFilter(input: string): DomainFilter {
  const q = input.trim().toLowerCase()
  const m = /^([a-z]+):\s*(.*)$/.exec(q)
  if (m && isField(m[1]!)) return { field: m[1], text: m[2]!.trim() }
  return { field: undefined, text: q }
}

/** The text of each field of a row, in lower case (the nameservers' only when asked for). */
interface DomainFilterRow {
  name: string
  registrar: string
  nameservers: () => string
}

export function matchesDomainFilter(f: DomainFilter, row: DomainFilterRow): boolean {
  if (!f.text) return true
  switch (f.field) {
    case 'name':
      return row.name.includes(f.text)
    case 'registrar':
      return row.registrar.includes(f.text)
    case 'ns':
      return row.nameservers().includes(f.text)
    case undefined:
      return row.name.includes(f.text) || row.registrar.includes(f.text)
  }
}
