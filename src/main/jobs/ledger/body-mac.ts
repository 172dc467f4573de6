/**
 * How the journal knows a sent body again in the service's log without keeping it: an HMAC of the
 * body's canonical digest (at-rest.ts bodyDigest) under a key of this installation. A plain
 * SHA-256 of the body would let anyone holding the journal confirm a guess of what was sent (a
 * dynamic DNS password is one short field of a short body); without the key, the MAC says nothing.
 *
 * Where the key lives: in the OS keychain, beside the accounts' API keys (its own entry, created
 * on first use). Where no keychain can be reached (the command given a key file or a systemd
 * credential, no D-Bus), in `journal.key` in the data folder, readable by the user only, created
 * on first use; the app moves such a key into the keychain when it next reaches one. A body is
 * matched under every key this installation holds, and as the plain digest an older journal kept.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { open, readFile, unlink } from 'node:fs/promises'
import type { SecretStore } from '../../accounts/secret-store'
import { bodyDigest } from './at-rest'

/** The keychain entry of the key (API keys are under accounts' UUIDs, so no account can be named this). */
export const BODY_KEY_ENTRY = 'journal-body-key'
/** What a MAC is written as: told apart from the plain digest an older journal kept. */
const PREFIX = 'hmac-sha256:'
const KEY_BYTES = 32

export interface BodyMacSource {
  /** The installation's keychain (the command's key file source has no entry and refuses one). */
  keychain?: () => Promise<SecretStore>
  /** The key file used where no keychain can be reached. */
  keyFile?: string
}

let processMac: BodyMac | undefined

export class BodyMac {
  private keys: Promise<Buffer[]> | undefined

  constructor(private readonly source: BodyMacSource) {}

  /** A key of this process only, the same for every runner in it: nothing written under it is matched by another process (tests, tools). */
  static ofThisProcess(): BodyMac {
    processMac ??= new BodyMac({})
    processMac.keys ??= Promise.resolve([randomBytes(KEY_BYTES)])
    return processMac
  }

  /** What the journal keeps of a body that was sent. */
  async of(body: string | undefined): Promise<string> {
    const [key] = await this.loaded()
    if (!key) throw new Error('no journal key')
    return macUnder(key, bodyDigest(body))
  }

  /** Whether a logged body is the one journaled as `kept` (under any key held, or as an older journal's digest). */
  async matches(body: string | undefined, kept: string): Promise<boolean> {
    const digest = bodyDigest(body)
    if (!kept.startsWith(PREFIX)) return kept === digest
    return (await this.loaded()).some((key) => macUnder(key, digest) === kept)
  }

  /**
   * The keys the journal's lines are chained under (journal-chain.ts), the first the one new
   * lines take: each derived from a body key held, so one key in the keychain serves both and a
   * MAC of one kind never passes for the other.
   */
  async chainKeys(): Promise<Buffer[]> {
    return (await this.loaded()).map((key) =>
      createHmac('sha256', key).update('hosting-admin journal chain v1').digest(),
    )
  }

  private loaded(): Promise<Buffer[]> {
    // Retried on the next use after a failure (a keychain that was locked, a folder not there yet).
    this.keys ??= this.load().catch((err: unknown) => {
      this.keys = undefined
      throw err
    })
    return this.keys
  }

  private async load(): Promise<Buffer[]> {
    const fileKey = this.source.keyFile ? await readKeyFile(this.source.keyFile) : undefined
    const keychain = await this.source.keychain?.().catch(() => undefined)
    if (keychain) {
      try {
        const kept = await keychain.get(BODY_KEY_ENTRY)
        const keychainKey = kept ? Buffer.from(kept, 'base64') : (fileKey ?? randomBytes(KEY_BYTES))
        if (!kept) {
          await keychain.set(BODY_KEY_ENTRY, keychainKey.toString('base64'))
          // Moved into the keychain: no copy of it left beside the journal.
          if (fileKey && this.source.keyFile) await unlink(this.source.keyFile).catch(() => undefined)
        }
        return fileKey && !fileKey.equals(keychainKey) ? [keychainKey, fileKey] : [keychainKey]
      } catch {
        // A keychain that refuses (the command's key source) or cannot be reached: the key file.
      }
    }
    if (fileKey) return [fileKey]
    if (!this.source.keyFile) throw new Error('no keychain and no key file for the journal key')
    return [await createKeyFile(this.source.keyFile)]
  }
}

function macUnder(key: Buffer, digest: string): string {
  return `${PREFIX}${createHmac('sha256', key).update(digest).digest('hex')}`
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')
    return key.length === KEY_BYTES ? key : undefined
  } catch {
    return undefined
  }
}

/** A new key in a new file (never over another process's: wx), or the one that process wrote first. */
async function createKeyFile(file: string): Promise<Buffer> {
  const key = randomBytes(KEY_BYTES)
  try {
    const h = await open(file, 'wx', 0o600)
    try {
      await h.write(`${key.toString('base64')}\n`)
      await h.datasync()
    } finally {
      await h.close()
    }
    return key
  } catch (err) {
    const other =
      typeof err === 'object' && err !== null && 'code' in err && err.code === 'EEXIST'
        ? await readKeyFile(file)
        : undefined
    if (other) return other
    throw err
  }
}
