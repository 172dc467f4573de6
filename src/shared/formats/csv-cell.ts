/**
 * One CSV cell, as a spreadsheet can open it safely (the renderer's exports and main's portfolio
 * export alike):
 * - text a spreadsheet would run as a formula gets an apostrophe in front: one that starts with
 *   =, +, -, @, a tab, a carriage return, or a space (a spreadsheet trims it and reads what follows);
 * - text with a quotation mark, a line break, a comma, a semicolon (the list separator of
 *   spreadsheets in many locales) or a tab (the separator a spreadsheet guesses for pasted or
 *   tab-separated text) is quoted, so it stays one cell.
 */
export function csvCell(value: unknown): string {
  let s = value === undefined || value === null ? '' : String(value)
  if (/^[=+\-@\t\r ]/.test(s)) s = `'${s}`
  return /[",;\n\r\t]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
