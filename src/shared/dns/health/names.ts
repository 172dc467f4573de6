/**
 * Names in a zone as the health rules compare them: a host of the records form (`@`, empty, the
 * zone's own name, relative `www`, or full `www.example.com.`) and a target (`mail.example.net.`
 * full, `mail` relative, `@` the apex) as one lower-case full name without the final dot.
 */

const bareName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '')

/** The full name a host stands for in `zone`. */
export function hostName(host: string, zone: string): string {
  const z = bareName(zone)
  const h = host.trim().toLowerCase()
  if (h === '' || h === '@') return z
  if (h.endsWith('.')) return h.slice(0, -1)
  if (h === z || h.endsWith(`.${z}`)) return h
  return `${h}.${z}`
}

/** The full name a target (of a CNAME, MX, NS or SRV) stands for: full with its dot, else relative to the zone. */
export function targetName(target: string, zone: string): string {
  const t = target.trim().toLowerCase()
  if (t === '@' || t === '') return bareName(zone)
  if (t.endsWith('.')) return t.slice(0, -1)
  return `${t}.${bareName(zone)}`
}

/** Whether a full name lies inside the zone (the apex included). */
export function inZone(name: string, zone: string): boolean {
  const z = bareName(zone)
  return name === z || name.endsWith(`.${z}`)
}
