/**
 * Where a key is, as the Secret Service itself says (freedesktop.org's, on D-Bus: GNOME Keyring,
 * KWallet), without unlocking anything: SearchItems answers the items that match in two lists,
 * unlocked and locked. keytar (over libsecret) cannot tell these apart: a lookup of an item in a
 * locked collection (its unlock prompt dismissed, or impossible without a display) and a lookup
 * of an item that is not there both give null. Asked through `dbus-send`, the D-Bus tool of every
 * system with a session bus; undefined when it cannot be asked (no tool, no bus, no service).
 */
import { execFile } from 'node:child_process'

/** Where a key is: readable now, in a locked collection, or nowhere. */
export type KeyPlace = 'unlocked' | 'locked' | 'absent'

/** Runs dbus-send with these arguments: its standard output, or undefined when it failed. */
export type DbusSend = (args: string[]) => Promise<string | undefined>

const runDbusSend: DbusSend = (args) =>
  new Promise((done) => {
    execFile('dbus-send', args, { timeout: 5000, encoding: 'utf8' }, (err, stdout) => done(err ? undefined : stdout))
  })

export async function locateSecret(
  service: string,
  account: string,
  send: DbusSend = runDbusSend,
): Promise<KeyPlace | undefined> {
  // dbus-send's dictionary syntax separates with commas: a value holding one cannot be said (the app's names never do).
  if (/[,\s]/.test(service) || /[,\s]/.test(account)) return undefined
  const out = await send([
    '--session',
    '--print-reply',
    '--dest=org.freedesktop.secrets',
    '/org/freedesktop/secrets',
    'org.freedesktop.Secret.Service.SearchItems',
    `dict:string:string:service,${service},account,${account}`,
  ])
  return out === undefined ? undefined : placeIn(out)
}

/**
 * The reply, as dbus-send prints it: two arrays of object paths, the unlocked items then the locked.
 *   array [ object path "/org/freedesktop/secrets/collection/login/1" ]  array [ ]
 */
export function placeIn(reply: string): KeyPlace | undefined {
  const arrays = [...reply.matchAll(/array \[([^\]]*)\]/g)].map(
    (m) => (m[1] ?? '').match(/object path "/g)?.length ?? 0,
  )
  if (arrays.length !== 2) return undefined
  const [unlocked = 0, locked = 0] = arrays
  return unlocked > 0 ? 'unlocked' : locked > 0 ? 'locked' : 'absent'
}
