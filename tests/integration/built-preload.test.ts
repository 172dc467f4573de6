/**
 * The BUILT preload (out/preload/index.cjs), run as Electron runs a sandboxed preload: one
 * script whose `require` knows only 'electron', here a double of contextBridge and ipcRenderer.
 * What it exposes to the page is asserted, not how its source reads.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { runInNewContext } from 'node:vm'
import { z } from 'zod'
import { assertBuilt, BUILT_PRELOAD } from '../helpers/built-shell'
import { CHANNEL_NAMES, JOB_CHANNEL, QUIT_CHANNEL, REMINDER_OPEN_CHANNEL, ipcChannel } from '../../src/shared/ipc/channels'

const fn = z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function')

/** The double's recorded state, as far as this test reads it. */
const doubleState = z.object({
  exposed: z.array(z.object({ key: z.string(), api: z.unknown() })),
  invoked: z.array(z.object({ channel: z.string(), payload: z.unknown() })),
  rendererListeners: z.map(z.string(), z.array(fn)),
})

function loadPreload() {
  const require = createRequire(import.meta.url)
  const factory = z.object({ createElectronDouble: fn }).parse(require('../helpers/electron-double/electron.cjs'))
  const electron: unknown = factory.createElectronDouble({})
  const live = z.object({ __double: z.unknown() }).parse(electron).__double
  // Read afresh each time: a schema's parse copies, and the double keeps recording.
  const state = () => doubleState.parse(live)
  const required: string[] = []
  const sandboxRequire = (name: string) => {
    required.push(name)
    if (name !== 'electron') throw new Error(`A sandboxed preload cannot require "${name}"`)
    return electron
  }
  const module = { exports: {} }
  runInNewContext(readFileSync(BUILT_PRELOAD, 'utf8'), { require: sandboxRequire, module, exports: module.exports, console }, { filename: BUILT_PRELOAD })
  return { state, required }
}

/** Every dotted path to a function in an object tree. */
function functionPaths(node: unknown, prefix = ''): string[] {
  if (typeof node === 'function') return [prefix]
  if (typeof node !== 'object' || node === null) return []
  return Object.entries(node).flatMap(([k, v]) => functionPaths(v, prefix ? `${prefix}.${k}` : k))
}

function at(node: unknown, path: string): unknown {
  let n = node
  for (const part of path.split('.')) n = typeof n === 'object' && n !== null ? (n as Record<string, unknown>)[part] : undefined
  return n
}

beforeAll(() => assertBuilt())

describe('the built preload', () => {
  it('requires only electron and exposes exactly one thing to the page: `api`, one function per contract channel and the three event subscriptions', () => {
    const { state, required } = loadPreload()
    expect([...new Set(required)]).toEqual(['electron'])
    expect(state().exposed.map((e) => e.key)).toEqual(['api'])
    const api = state().exposed[0]?.api
    expect(functionPaths(api).sort()).toEqual([...CHANNEL_NAMES, 'jobs.onUpdate', 'app.onQuitRequest', 'reminders.onOpen'].sort())
    // No Electron object rides along: nothing but plain objects and functions.
    expect(JSON.stringify(api)).not.toMatch(/invoke|ipcRenderer|send/)
  })

  it('a channel function invokes its own Electron channel with the payload, and nothing else', async () => {
    const { state } = loadPreload()
    const api = state().exposed[0]?.api
    const call = at(api, 'domains.dns.get')
    if (typeof call !== 'function') throw new Error('no domains.dns.get')
    await call({ accountId: 'demo', domain: 'example.com' })
    expect(state().invoked).toEqual([{ channel: ipcChannel('domains.dns.get'), payload: { accountId: 'demo', domain: 'example.com' } }])
  })

  it('event subscriptions listen on their channel and stop when unsubscribed', () => {
    const { state } = loadPreload()
    const api = state().exposed[0]?.api
    const onUpdate = at(api, 'jobs.onUpdate')
    const onQuit = at(api, 'app.onQuitRequest')
    const onReminderOpen = at(api, 'reminders.onOpen')
    if (typeof onUpdate !== 'function' || typeof onQuit !== 'function' || typeof onReminderOpen !== 'function') throw new Error('no subscriptions')
    const seen: unknown[] = []
    const stop = fn.parse(onUpdate((job: unknown) => seen.push(job)))
    onQuit(() => seen.push('quit'))
    const stopReminders = fn.parse(onReminderOpen((target: unknown) => seen.push(target)))
    for (const l of state().rendererListeners.get(JOB_CHANNEL) ?? []) l({}, { id: 'w-1' })
    for (const l of state().rendererListeners.get(QUIT_CHANNEL) ?? []) l({})
    for (const l of state().rendererListeners.get(REMINDER_OPEN_CHANNEL) ?? []) l({}, { kind: 'domain', accountId: 'main', id: 'a.example' })
    expect(seen).toEqual([{ id: 'w-1' }, 'quit', { kind: 'domain', accountId: 'main', id: 'a.example' }])
    stop()
    stopReminders()
    expect(state().rendererListeners.get(JOB_CHANNEL)).toEqual([])
    expect(state().rendererListeners.get(REMINDER_OPEN_CHANNEL)).toEqual([])
  })

  it('stays small: at most 12 KB', () => {
    expect(statSync(BUILT_PRELOAD).size).toBeLessThanOrEqual(12 * 1024)
  })
})
