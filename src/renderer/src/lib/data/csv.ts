/** CSV for exports: every cell as a spreadsheet can open it safely (shared/formats/csv-cell.ts). */
import { csvCell } from '@shared/formats/csv-cell'

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

/** Offers a text as a file download. */
export function download(
  filename: string,
  content: string | Uint8Array<ArrayBuffer>,
  type = 'text/csv;charset=utf-8',
): void {
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
