/**
 * CSV for exports. Cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR)
 * are prefixed with an apostrophe, so an exported domain list cannot execute anything.
 */
export function csvCell(value: unknown): string {
  let s = value === undefined || value === null ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

/** Offers a text as a file download. */
export function download(filename: string, content: string | Uint8Array<ArrayBuffer>, type = 'text/csv;charset=utf-8'): void {
  // Text gets a byte-order mark, so spreadsheet programs read it as UTF-8; bytes go as they are.
  const url = URL.createObjectURL(new Blob(typeof content === 'string' ? ['\ufeff', content] : [content], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
