/**
 * Account profiles in one JSON file under the app's user-data folder.
 *
 * Every change is applied to the in-memory copy and then written atomically, one
 * write at a time in the order of the changes, so two quick saves never lose
 * either. A file that cannot be read as profiles is moved aside with a timestamp
 * and reported; it is never overwritten. A file whose envelope reads but with some
 * accounts that do not (or that repeat an id) loads the others: the whole file is
 * copied aside first, and the ones left out are named.
 */
import { copyFile, readFile, rename, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { accountProfileSchema, DEMO_ACCOUNT_ID, type AccountProfile } from '@shared/accounts'
import type { ErrorData } from '@shared/errors'
import { writeFileAtomic } from './atomic-file'

const fileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  accounts: z.array(accountProfileSchema),
})
export type AccountsFile = z.output<typeof fileSchema>
/** The file as far as it can be read without its accounts: each account is read on its own. */
const envelopeSchema = fileSchema.extend({ accounts: z.array(z.unknown()) })

/** An unreadable accounts file: what the user is told (params.movedTo says where it was kept). */
export type LoadProblem = ErrorData & { params: { movedTo: string } }

const stampOf = (now: Date) => now.toISOString().replace(/[:.]/g, '-')

/** An account left out at load: its place in the file, and its id when it has one. */
function describeLeftOut(index: number, raw: unknown): string {
  const id =
    typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string'
      ? raw.id.slice(0, 64)
      : undefined
  return id === undefined ? `#${index + 1}` : `#${index + 1} (${id})`
}

/** The chosen account, or the demo when none is chosen or the chosen one is gone. */
export function activeIdIn({ activeId, accounts }: AccountsFile): string {
  if (activeId && (activeId === DEMO_ACCOUNT_ID || accounts.some((a) => a.id === activeId))) return activeId
  return accounts[0]?.id ?? DEMO_ACCOUNT_ID
}

/**
 * The file's profiles when every account reads, each id once: what load() returns without moving
 * or copying anything aside. Undefined when load() would have a problem to keep and report
 * (unreadable, an account left out), which only the app's services do, under the folder's lock.
 */
export function cleanAccountsIn(text: string): AccountsFile | undefined {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  const parsed = fileSchema.safeParse(json)
  if (!parsed.success) return undefined
  const { accounts } = parsed.data
  return new Set(accounts.map((a) => a.id)).size === accounts.length ? parsed.data : undefined
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
      if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT') return this.data
      throw err
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const envelope = envelopeSchema.safeParse(json)
    if (envelope.success) return this.loadAccounts(envelope.data)
    const movedTo = `${this.file}.corrupt-${stampOf(new Date())}`
    await rename(this.file, movedTo)
    this.problem = { kind: 'internal', code: 'accountsFile.unreadable', params: { movedTo } }
    return this.data
  }

  /**
   * Every account that reads, each once: one bad profile (or a second account with an id already
   * seen, which would make every later lookup by id ambiguous) no longer costs all the others.
   */
  private async loadAccounts(envelope: z.output<typeof envelopeSchema>): Promise<AccountsFile> {
    const accounts: AccountProfile[] = []
    const leftOut: string[] = []
    envelope.accounts.forEach((raw, index) => {
      const account = accountProfileSchema.safeParse(raw)
      if (account.success && !accounts.some((a) => a.id === account.data.id)) accounts.push(account.data)
      else leftOut.push(describeLeftOut(index, raw))
    })
    // The active id as it was (the built-in demo's included); one naming a left-out account falls
    // back as any unknown id does (AccountService.activeId).
    this.data = { version: 1, activeId: envelope.activeId, accounts }
    if (leftOut.length > 0) {
      // Kept whole before the next save rewrites the file without them.
      const movedTo = `${this.file}.corrupt-${stampOf(new Date())}`
      await copyFile(this.file, movedTo)
      this.problem = {
        kind: 'internal',
        code: 'accountsFile.someUnreadable',
        params: { movedTo, count: leftOut.length, accounts: leftOut.join(', ') },
      }
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
