/**
 * The key from standard input (--key-stdin), as `docker login --password-stdin` takes a password:
 * piped from a secret manager or from a file only root can read
 * (`sudo cat /etc/hosting-admin/shop.key | sudo -u hosting-admin hosting-admin accounts add …`),
 * so it is never in argv or the environment. Read to its end, at most a key's size; the text is
 * checked as a key file's is (one word, no control characters). A terminal is not read here: a key
 * typed there would be shown as it is typed (accounts add asks for it without echo instead:
 * key-prompt.ts).
 */
import { keyOfText, MAX_KEY_BYTES, type KeyProblem } from './key-source'

/** What the command reads standard input as: a stream of bytes, a terminal or not. */
export interface KeyInput extends AsyncIterable<Buffer | string> {
  isTTY?: boolean
}

export type KeyRead = { ok: true; key: string } | { ok: false; problem: KeyProblem }

export async function keyFromStdin(input: KeyInput = process.stdin): Promise<KeyRead> {
  if (input.isTTY) return { ok: false, problem: { code: 'cli.key.stdinTerminal', params: {} } }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of input) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    chunks.push(bytes)
    size += bytes.length
    // More than a key: not one, and not read further (a file or a stream named by mistake).
    if (size > MAX_KEY_BYTES) break
  }
  const whole = Buffer.concat(chunks)
  const text = whole.toString('utf8')
  whole.fill(0)
  for (const c of chunks) c.fill(0)
  if (size > MAX_KEY_BYTES) return { ok: false, problem: { code: 'cli.key.stdinNotAKey', params: {} } }
  const found = keyOfText('-', text)
  if (found.ok) return found
  const code = found.problem.code === 'cli.key.empty' ? 'cli.key.stdinEmpty' : 'cli.key.stdinNotAKey'
  return { ok: false, problem: { code, params: {} } }
}
