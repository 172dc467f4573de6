/** The local write ledger (the journal file and this process's holds) through the shared ledger suite. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import { LocalLedger } from '../../src/main/jobs/ledger/local-ledger'
import type { WriteLedger } from '../../src/main/jobs/ledger/write-ledger'
import { holdFolderOf } from '../helpers/held-folder'
import { ledgerContract } from '../helpers/ledger-contract'

const opened = new Map<WriteLedger, { file: string; release: () => Promise<void> }>()

async function open(file: string): Promise<WriteLedger> {
  const lock = await holdFolderOf(file)
  const ledger = new LocalLedger(new Journal(file, lock))
  opened.set(ledger, { file, release: () => lock.release() })
  return ledger
}

ledgerContract('the local ledger', {
  oneProcessJournal: true,
  fresh: () => open(join(mkdtempSync(join(tmpdir(), 'ledger-')), 'journal.jsonl')),
  async reopen(ledger) {
    const was = opened.get(ledger)
    if (!was) throw new Error('not a ledger of this suite')
    // As a restarted process: the journal closed, the folder let go, then taken again.
    await ledger.close()
    await was.release()
    return open(was.file)
  },
})
