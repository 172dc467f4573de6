/**
 * An iCalendar file read back as a calendar program reads it (RFC 5545): its physical lines
 * checked (CRLF, at most 75 octets, whole UTF-8 characters), then unfolded, split into
 * properties and unescaped, and grouped into the calendar's own properties and its events.
 */
export interface IcsProperty {
  name: string
  params: string[]
  value: string
}

export interface IcsFile {
  calendar: IcsProperty[]
  events: IcsProperty[][]
  /** Every rule of the file's lines that it breaks (none for a good file). */
  problems: string[]
}

const encoder = new TextEncoder()

export function readIcs(text: string): IcsFile {
  const problems: string[] = []
  if (!text.endsWith('\r\n')) problems.push('the last line does not end in CRLF')
  const physical = text.replace(/\r\n$/, '').split('\r\n')
  physical.forEach((line, i) => {
    if (/[\r\n]/.test(line)) problems.push(`line ${i + 1} has a bare CR or LF`)
    const bytes = encoder.encode(line)
    if (bytes.length > 75) problems.push(`line ${i + 1} is ${bytes.length} octets`)
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {
      problems.push(`line ${i + 1} cuts a character in two`)
    }
  })
  const logical = text
    .replace(/\r\n[ \t]/g, '')
    .replace(/\r\n$/, '')
    .split('\r\n')
  const props = logical.map((line): IcsProperty => {
    const colon = line.indexOf(':')
    const [name = '', ...params] = line.slice(0, colon).split(';')
    const value = line.slice(colon + 1).replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c))
    return { name, params, value }
  })
  const calendar: IcsProperty[] = []
  const events: IcsProperty[][] = []
  let current: IcsProperty[] | undefined
  for (const p of props) {
    if (p.name === 'BEGIN' && p.value === 'VEVENT') current = []
    else if (p.name === 'END' && p.value === 'VEVENT') {
      if (current) events.push(current)
      current = undefined
    } else if (current) current.push(p)
    else calendar.push(p)
  }
  return { calendar, events, problems }
}

/** The value of a property, the first of that name. */
export const icsValue = (props: IcsProperty[], name: string): string | undefined =>
  props.find((p) => p.name === name)?.value
