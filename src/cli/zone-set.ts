/**
 * The zones a run over many zones acts on (zones.ts), from what the command line names:
 *
 * - a folder: each file is a zone, named by its domain (`example.com`, or with one of
 *   ZONE_FILE_ENDINGS: `example.com.zone`), of the account the command acts for; a subfolder
 *   named by an account holds that account's zones (`zones/Main/example.com.zone`). Hidden
 *   files, notes (.md) and configurations (.json) are left out, and said to be.
 * - a zones configuration: a JSON file (below), for zones whose files are named otherwise or
 *   kept elsewhere. Its paths are relative to its own folder.
 *
 * {"zones": [{"domain": "example.com", "file": "dns/example.com.bind", "account": "Main", "format": "bind"}]}
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { z } from 'zod'
import { BadInput } from './context'
import type { Texts } from './text'
import type { ZoneFormat } from './zone-file'

export interface ZoneEntry {
  domain: string
  file: string
  /** The account's name or id as the folder or configuration gives it; else the command's own. */
  account: string | undefined
  format: ZoneFormat | undefined
}

export interface ZoneSet {
  zones: ZoneEntry[]
  /** Files of the folder that are not zone files (notes, configurations), said as left out. */
  leftOut: string[]
}

/** The endings a zone file's name may add to its domain. */
const ZONE_FILE_ENDINGS = ['.zone', '.bind', '.db', '.txt', '.records'] as const
/** Files a zones folder commonly holds beside its zones: notes and configurations. */
const NOT_ZONES = /\.(md|json)$/i
/**
 * A domain name: two or more dot-separated labels of letters, digits, hyphens (and underscores),
 * an alphabetic or IDN top label.
 */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

const ConfigSchema = z
  .object({
    zones: z
      .array(
        z
          .object({
            domain: z.string().refine((d) => DOMAIN.test(d.toLowerCase())),
            file: z.string().min(1),
            account: z.string().min(1).optional(),
            format: z.enum(['records', 'bind']).optional(),
          })
          .strict(),
      )
      .min(1),
  })
  .strict()

const reasonOf = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown'

/** The zones a folder or a configuration names; what is wrong with either is bad input, nothing sent. */
export async function zoneSetOf(say: Texts, path: string, asked: ZoneFormat | undefined): Promise<ZoneSet> {
  const found = await stat(path).catch((err: unknown) => {
    throw BadInput.of(say, 'cli.fileUnreadable', { file: path, reason: reasonOf(err) })
  })
  const set = found.isDirectory() ? await folderSet(say, path, asked) : await configSet(say, path, asked)
  if (set.zones.length === 0) throw BadInput.of(say, 'cli.zones.none', { path })
  return set
}

async function folderSet(say: Texts, folder: string, asked: ZoneFormat | undefined): Promise<ZoneSet> {
  const zones: ZoneEntry[] = []
  const leftOut: string[] = []
  const read = async (dir: string, account: string | undefined) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
      throw BadInput.of(say, 'cli.fileUnreadable', { file: dir, reason: reasonOf(err) })
    })
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const file = join(dir, e.name)
      if (e.name.startsWith('.')) continue
      // An account's folder, one level down only: a deeper one is not a zone file.
      const linkedDir = e.isSymbolicLink() && (await stat(file).catch(() => undefined))?.isDirectory() === true
      const isDir = e.isDirectory() || linkedDir
      if (isDir) {
        if (account === undefined) await read(file, e.name)
        else leftOut.push(file)
        continue
      }
      if (NOT_ZONES.test(e.name)) {
        leftOut.push(file)
        continue
      }
      const ending = ZONE_FILE_ENDINGS.find((x) => e.name.toLowerCase().endsWith(x))
      const domain = (ending ? e.name.slice(0, -ending.length) : e.name).toLowerCase()
      if (!DOMAIN.test(domain)) throw BadInput.of(say, 'cli.zones.badFileName', { file })
      zones.push({ domain, file, account, format: asked })
    }
  }
  await read(folder, undefined)
  return { zones, leftOut }
}

async function configSet(say: Texts, file: string, asked: ZoneFormat | undefined): Promise<ZoneSet> {
  const text = await readFile(file, 'utf8').catch((err: unknown) => {
    throw BadInput.of(say, 'cli.fileUnreadable', { file, reason: reasonOf(err) })
  })
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw BadInput.of(say, 'cli.zones.badConfig', { file, where: 'JSON' })
  }
  const parsed = ConfigSchema.safeParse(json)
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') || basename(file)
    throw BadInput.of(say, 'cli.zones.badConfig', { file, where })
  }
  const base = dirname(file)
  return {
    zones: parsed.data.zones.map((z) => ({
      domain: z.domain.toLowerCase(),
      file: resolve(base, z.file),
      account: z.account,
      format: z.format ?? asked,
    })),
    leftOut: [],
  }
}
