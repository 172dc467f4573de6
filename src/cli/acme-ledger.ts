/**
 * What `acme auth` added, so that `acme cleanup` removes only that: a TXT line that was in the
 * zone before the auth (someone else's, or an earlier run's still in use) is left in place.
 *
 * Kept in the data folder, one file per line added (`acme-added/<digest>.json`, readable by the
 * user only): hooks of two certbot runs at once, with the app open, note and forget their lines
 * at the same moment, and one shared list rewritten by each would lose one of them (its line
 * then never cleaned up). Each file is written whole through a temporary file and a rename; a
 * write that fails (a full disk, a read-only folder) removes its temporary file and says so.
 * Lines noted by earlier versions in the one list `acme-added.json` are still found and forgotten.
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'

const entrySchema = z.object({ accountId: z.string(), domain: z.string(), line: z.string(), at: z.string() })
const legacySchema = z.object({ version: z.literal(1), added: z.array(entrySchema) })
export type AddedLine = z.infer<typeof entrySchema>
type Key = Omit<AddedLine, 'at'>

/** The list is not writable: `reason` is the system's code (ENOSPC, EROFS, EACCES...). */
export class LedgerUnwritable extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`)
  }
}

const codeOf = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unknown'
const folderOf = (dataDir: string) => join(dataDir, 'acme-added')
const fileOf = (dataDir: string, key: Key) =>
  join(
    folderOf(dataDir),
    `${createHash('sha256')
      .update(JSON.stringify([key.accountId, key.domain, key.line]))
      .digest('hex')}.json`,
  )
const legacyFileOf = (dataDir: string) => join(dataDir, 'acme-added.json')
const same = (a: Key, b: Key) => a.accountId === b.accountId && a.domain === b.domain && a.line === b.line

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  )
}

async function readLegacy(dataDir: string): Promise<AddedLine[]> {
  try {
    const parsed = legacySchema.safeParse(JSON.parse(await readFile(legacyFileOf(dataDir), 'utf8')))
    return parsed.success ? parsed.data.added : []
  } catch {
    return []
  }
}

async function writeWhole(file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`
  try {
    await mkdir(join(file, '..'), { recursive: true, mode: 0o700 })
    await writeFile(temporary, text, { mode: 0o600 })
    await rename(temporary, file)
  } catch (err) {
    // A full disk leaves a temporary file cut short: it goes, what was there stays.
    await unlink(temporary).catch(() => undefined)
    throw new LedgerUnwritable(file, codeOf(err))
  }
}

/** Notes the line; false when it was noted already (an earlier run's, whose note is not this run's to forget). */
export async function noteAdded(dataDir: string, line: AddedLine): Promise<boolean> {
  const file = fileOf(dataDir, line)
  if (await exists(file)) return false
  await writeWhole(file, JSON.stringify(line))
  return true
}

export async function wasAdded(dataDir: string, line: Key): Promise<boolean> {
  return (await exists(fileOf(dataDir, line))) || (await readLegacy(dataDir)).some((a) => same(a, line))
}

export async function forget(dataDir: string, line: Key): Promise<void> {
  const file = fileOf(dataDir, line)
  await unlink(file).catch((err: unknown) => {
    if (codeOf(err) !== 'ENOENT') throw new LedgerUnwritable(file, codeOf(err))
  })
  const legacy = await readLegacy(dataDir)
  if (legacy.some((a) => same(a, line)))
    await writeWhole(legacyFileOf(dataDir), JSON.stringify({ version: 1, added: legacy.filter((a) => !same(a, line)) }))
}
