/**
 * The diagnostics as the text put on the clipboard. Its labels are fixed English field names,
 * not catalogue text: whoever reads a report reads the same words whatever the user's language.
 */
import type { Diagnostics } from '@shared/ipc/contract'

export function diagnosticsText(d: Diagnostics): string {
  return [
    `Hosting Admin ${d.app}`,
    `electron: ${d.electron ?? '-'}`,
    `chrome: ${d.chrome ?? '-'}`,
    `node: ${d.node}`,
    `os: ${d.os}`,
    `accounts: ${d.accounts}`,
    `log: ${d.logFile} (last ${d.log.length} lines)`,
    '',
    ...d.log,
  ].join('\n')
}
