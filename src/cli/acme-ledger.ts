/**
 * What `acme auth` added, so that `acme cleanup` removes only that: a TXT line that was in the
 * zone before the auth (someone else's, or an earlier run's still in use) is left in place. Kept
 * in the data folder (`acme-added.json`, readable by the user only); written whole through a
 * temporary file and a rename, so a crash leaves the old or the new list, never half of one; a
 * write that fails (a full disk, a read-only folder) removes its temporary file and says so.
 */
import { randomUUID } from 'node:crypto'
import { readFile, rename, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'

const entrySchema = z.object({ accountId: z.string(), domain: z.string(), line: z.string(), at: z.string() })
const ledgerSchema = z.object({ version: z.literal(1), added: z.array(entrySchema) })
export type AddedLine = z.infer<typeof entrySchema>

const fileOf = (dataDir: string) => join(dataDir, 'acme-added.json')

async function read(dataDir: string): Promise<AddedLine[]> {
  let text: string
  try {
    text = await readFile(fileOf(dataDir), 'utf8')
  } catch {
    return []
  }
  try {
    const parsed = ledgerSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data.added : []
  } catch {
    return []
  }
}

/** The list could not be written: `reason` is the system's code (ENOSPC, EROFS, EACCES...). */
export class LedgerUnwritable extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`)
  }
}

const codeOf = (err: unknown) => (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unknown')

async function write(dataDir: string, added: AddedLine[]): Promise<void> {
  const file = fileOf(dataDir)
  const temporary = `${file}.${randomUUID()}.tmp`
  try {
    await writeFile(temporary, JSON.stringify({ version: 1, added }), { mode: 0o600 })
    await rename(temporary, file)
  } catch (err) {
    // A full disk leaves a temporary file cut short: it goes, the list stays as it was.
    await unlink(temporary).catch(() => undefined)
    throw new LedgerUnwritable(file, codeOf(err))
  }
}

const same = (a: Omit<AddedLine, 'at'>, b: Omit<AddedLine, 'at'>) => a.accountId === b.accountId && a.domain === b.domain && a.line === b.line

export async function noteAdded(dataDir: string, line: AddedLine): Promise<void> {
  const added = await read(dataDir)
  if (!added.some((a) => same(a, line))) await write(dataDir, [...added, line])
}

export async function wasAdded(dataDir: string, line: Omit<AddedLine, 'at'>): Promise<boolean> {
  return (await read(dataDir)).some((a) => same(a, line))
}

export async function forget(dataDir: string, line: Omit<AddedLine, 'at'>): Promise<void> {
  const added = await read(dataDir)
  if (added.some((a) => same(a, line))) await write(dataDir, added.filter((a) => !same(a, line)))
}
