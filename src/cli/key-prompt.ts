/**
 * Questions asked at a terminal only: the key of `accounts add` typed without echo (as `ssh-add`
 * or `sudo` ask), and a yes or no before `accounts remove`. A script's standard input is never
 * read as an answer: without a terminal the command says which option to give instead.
 */
import type { ReadStream } from 'node:tty'

/** Standard input as the questions need it: a terminal whose echo can be turned off. */
type Terminal = Pick<ReadStream, 'isTTY' | 'setRawMode' | 'on' | 'off' | 'resume' | 'pause' | 'setEncoding'>

const isTerminal = (input: NodeJS.ReadStream): input is NodeJS.ReadStream & Terminal =>
  input.isTTY === true && typeof input.setRawMode === 'function'

/** Whether the command may ask (standard input is a terminal). */
export const canAsk = (input: NodeJS.ReadStream = process.stdin): boolean => isTerminal(input)

/** Ctrl-C, Ctrl-D on an empty line: the question is abandoned. */
const ABANDON = new Set(['\u0003', '\u0004'])

/**
 * One line read from the terminal with its echo off; undefined when the user abandoned it
 * (Ctrl-C, Ctrl-D) or standard input is no terminal. `prompt` goes to `ask` (stderr).
 */
export function askHidden(
  prompt: string,
  ask: (text: string) => void,
  input: NodeJS.ReadStream = process.stdin,
): Promise<string | undefined> {
  if (!isTerminal(input)) return Promise.resolve(undefined)
  // Echo off before the question shows: a key pasted as soon as it shows is never echoed.
  input.setRawMode(true)
  ask(prompt)
  return new Promise((resolve) => {
    let typed = ''
    const end = (answer: string | undefined) => {
      input.off('data', onData)
      input.setRawMode(false)
      input.pause()
      // The line the user ended: the next output starts on its own line.
      ask('')
      resolve(answer)
    }
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ABANDON.has(ch) && (ch === '\u0003' || typed === '')) return end(undefined)
        if (ch === '\r' || ch === '\n') return end(typed)
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1)
        else if (ch >= ' ') typed += ch
      }
    }
    input.setEncoding('utf8')
    input.on('data', onData)
    input.resume()
  })
}

/** A yes or no at the terminal (echoed: it is no secret), asked on stderr; only one of `yesWords` is a yes. */
export async function askYes(
  prompt: string,
  yesWords: readonly string[],
  input: NodeJS.ReadStream = process.stdin,
): Promise<boolean> {
  if (!isTerminal(input)) return false
  const { createInterface } = await import('node:readline/promises')
  const rl = createInterface({ input, output: process.stderr, terminal: true })
  try {
    const answer = (await rl.question(`${prompt} `)).trim().toLowerCase()
    return yesWords.includes(answer)
  } finally {
    rl.close()
    // Nothing else is read from the terminal: it must not keep the process open.
    input.pause()
  }
}
