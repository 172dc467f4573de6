/** The key piped to --key-stdin (src/cli/key-stdin.ts): read to its end, checked as a key file's text is, never from a terminal. */
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { keyFromStdin } from '../../src/cli/key-stdin'
import { keySourceOf } from '../../src/cli/key-source'

const piped = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)))

describe('--key-stdin', () => {
  it('a key, in one chunk or several, with or without its last newline', async () => {
    expect(await keyFromStdin(piped('sbx_key_1\n'))).toEqual({ ok: true, key: 'sbx_key_1' })
    expect(await keyFromStdin(piped('sbx_', 'key_', '2'))).toEqual({ ok: true, key: 'sbx_key_2' })
  })
  it.each([
    ['nothing', [''], 'cli.key.stdinEmpty'],
    ['blank lines', ['\n\n'], 'cli.key.stdinEmpty'],
    ['two words', ['a b'], 'cli.key.stdinNotAKey'],
    ['two lines', ['a\nb\n'], 'cli.key.stdinNotAKey'],
    ['more than a key', ['k'.repeat(3000), 'k'.repeat(3000)], 'cli.key.stdinNotAKey'],
  ])('%s: refused, the key not said', async (_what, chunks, code) => {
    expect(await keyFromStdin(piped(...chunks))).toEqual({ ok: false, problem: { code, params: {} } })
  })
  it('a terminal is not read (what is typed there shows)', async () => {
    const terminal = Object.assign(piped('sbx_key'), { isTTY: true })
    expect(await keyFromStdin(terminal)).toEqual({ ok: false, problem: { code: 'cli.key.stdinTerminal', params: {} } })
  })
  it('is one key source among the others: given with --key-file or --key-credential it is refused, unread', async () => {
    let read = 0
    const stdin = () => {
      read += 1
      return keyFromStdin(piped('sbx_key'))
    }
    const req = { env: {}, me: undefined, stdin }
    expect(await keySourceOf({ ...req, keyFile: '/k', credential: undefined })).toMatchObject({
      ok: false,
      problem: { code: 'cli.key.twoSources' },
    })
    expect(await keySourceOf({ ...req, keyFile: undefined, credential: 'c' })).toMatchObject({
      ok: false,
      problem: { code: 'cli.key.twoSources' },
    })
    expect(read).toBe(0)
    // Alone, it wins over the environment's key file and credential.
    const env = { HOSTING_ADMIN_KEY_FILE: '/nonexistent', CREDENTIALS_DIRECTORY: '/nonexistent' }
    expect(await keySourceOf({ ...req, env, keyFile: undefined, credential: undefined })).toEqual({
      ok: true,
      source: { from: 'stdin', path: '-', key: 'sbx_key' },
    })
  })
})
