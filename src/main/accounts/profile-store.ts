/**
 * Account profiles in one JSON file under the app's user-data folder.
 *
 * Every change is applied to the in-memory copy and then written atomically, one
 * write at a time in the order of the changes, so two quick saves never lose
 * either. A file that cannot be read as profiles is moved aside with a timestamp
 * and reported; it is never overwritten.
 */
import { readFile, rename, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { accountProfileSchema, type AccountProfile } from '../../shared/accounts'
import type { ErrorData } from '../../shared/errors'
import { writeFileAtomic } from './atomic-file'

const fileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  accounts: z.array(accountProfileSchema),
})
export type AccountsFile = z.output<typeof fileSchema>

/** An unreadable accounts file: what the user is told (params.movedTo says where it was kept). */
export type LoadProblem = ErrorData & { params: { movedTo: string } }

export class ProfileStore {
  private data: AccountsFile = { version: 1, activeId: null, accounts: [] }
  private writes: Promise<void> = Promise.resolve()
  problem: LoadProblem | undefined

  constructor(readonly file: string) {}

  async load(): Promise<AccountsFile> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (err) {
      if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT') return this.data
      throw err
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const parsed = fileSchema.safeParse(json)
    if (parsed.success) {
      this.data = parsed.data
      return this.data
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const movedTo = `${this.file}.corrupt-${stamp}`
    await rename(this.file, movedTo)
    this.problem = { kind: 'internal', code: 'accountsFile.unreadable', params: { movedTo } }
    return this.data
  }

  get current(): Readonly<AccountsFile> {
    return this.data
  }

  /** Applies a change and queues its write. Resolves once this change is on disk. */
  update(change: (data: AccountsFile) => void): Promise<void> {
    const next: AccountsFile = structuredClone(this.data)
    change(next)
    fileSchema.parse(next)
    this.data = next
    const snapshot = JSON.stringify(next, null, 2)
    const write = this.writes.then(async () => {
      await mkdir(dirname(this.file), { recursive: true })
      await writeFileAtomic(this.file, snapshot)
    })
    // A failed write must not block later ones; the caller of this change still sees the failure.
    this.writes = write.catch(() => undefined)
    return write
  }

  find(id: string): AccountProfile | undefined {
    return this.data.accounts.find((a) => a.id === id)
  }
}
