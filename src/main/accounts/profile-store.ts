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
import { writeFileAtomic } from './atomic-file'

const fileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  accounts: z.array(accountProfileSchema),
})
export type AccountsFile = z.output<typeof fileSchema>

export interface LoadProblem {
  /** Where the unreadable file was moved. */
  movedTo: string
  message: string
}

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
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return this.data
      throw err
    }
    let parsed: z.ZodSafeParseResult<AccountsFile>
    try {
      parsed = fileSchema.safeParse(JSON.parse(text))
    } catch {
      parsed = { success: false, error: new z.ZodError([]) } as z.ZodSafeParseResult<AccountsFile>
    }
    if (parsed.success) {
      this.data = parsed.data
      return this.data
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const movedTo = `${this.file}.corrupt-${stamp}`
    await rename(this.file, movedTo)
    this.problem = {
      movedTo,
      message: `The accounts file could not be read, so the app started without accounts. The file was kept as ${movedTo}; API keys in the keychain are untouched.`,
    }
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
