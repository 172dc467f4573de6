/**
 * The BUILT preload (out/preload/index.cjs), run as Electron runs a sandboxed preload: one
 * script whose `require` knows only 'electron', here a double of contextBridge and ipcRenderer.
 * What it exposes to the page and what it sends are asserted, not how its source reads.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { runInNewContext } from 'node:vm'
import { z } from 'zod'
import { assertBuilt, BUILT_PRELOAD } from '../../support/built-shell'
import { CHANNEL_NAMES, EVENT_CHANNELS, ipcChannel } from '@shared/ipc/channels'

const fn = z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function')

/** The double's recorded state, as far as this test reads it. */
const doubleState = z.object({
  exposed: z.array(z.object({ key: z.string(), api: z.unknown() })),
  invoked: z.array(z.object({ channel: z.string(), payload: z.unknown() })),
  rendererListeners: z.map(z.string(), z.array(fn)),
})

function loadPreload() {
  const require = createRequire(import.meta.url)
  const factory = z.object({ createElectronDouble: fn }).parse(require('../../support/electron-double/electron.cjs'))
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
  runInNewContext(
    readFileSync(BUILT_PRELOAD, 'utf8'),
    { require: sandboxRequire, module, exports: module.exports, console },
    { filename: BUILT_PRELOAD },
  )
  return { state, required }
}

/** The page's side of what the preload exposed: the members it has, and each as a function. */
function exposedApi(state: () => z.infer<typeof doubleState>) {
  const api = z.record(z.string(), z.unknown()).parse(state().exposed[0]?.api)
  const member = (name: string) => fn.parse(api[name])
  return { keys: Object.keys(api).sort(), member }
}

beforeAll(() => assertBuilt())

describe('the built preload', () => {
  it('requires only electron and exposes exactly one thing to the page: `api`, one invoke and the event subscriptions', () => {
    const { state, required } = loadPreload()
    expect([...new Set(required)]).toEqual(['electron'])
    expect(state().exposed.map((e) => e.key)).toEqual(['api'])
    const { keys, member } = exposedApi(state)
    expect(keys).toEqual(['invoke', 'onJob', 'onProgress', 'onQuitRequest', 'onReloadRequest', 'onReminderOpen'])
    for (const k of keys) expect(typeof member(k)).toBe('function')
    // No Electron object rides along: nothing but plain objects and functions.
    expect(JSON.stringify(state().exposed[0]?.api)).not.toMatch(/ipcRenderer|send/)
  })

  it('invoke sends a contract channel on its own Electron channel with the payload, and nothing else', async () => {
    const { state } = loadPreload()
    const invoke = exposedApi(state).member('invoke')
    await invoke('domains.dns.get', { accountId: 'demo', domain: 'example.com' })
    await invoke('all.domains.list', { accountId: 'demo', callId: 'c-1' })
    expect(state().invoked).toEqual([
      { channel: ipcChannel('domains.dns.get'), payload: { accountId: 'demo', domain: 'example.com' } },
      { channel: ipcChannel('all.domains.list'), payload: { accountId: 'demo', callId: 'c-1' } },
    ])
    // Every contract channel is let through.
    for (const channel of CHANNEL_NAMES) await invoke(channel, {})
    expect(
      state()
        .invoked.slice(2)
        .map((c) => c.channel),
    ).toEqual(CHANNEL_NAMES.map(ipcChannel))
  })

  it('invoke refuses a name outside the contract without sending anything, answering as main would', async () => {
    const { state } = loadPreload()
    const invoke = exposedApi(state).member('invoke')
    for (const channel of [
      'shell.exec',
      'domains.dns.set',
      'progress',
      'ha:domains.dns.get',
      '',
      'constructor',
      '__proto__',
    ]) {
      expect(await invoke(channel, {}), channel).toMatchObject({
        ok: false,
        error: { kind: 'validation', code: 'ipc.unknownChannel' },
      })
    }
    expect(await invoke({ toString: () => 'domains.dns.get' }, {})).toMatchObject({
      ok: false,
      error: { code: 'ipc.unknownChannel' },
    })
    expect(state().invoked).toEqual([])
  })

  it('event subscriptions listen on their channel and stop when unsubscribed', () => {
    const { state } = loadPreload()
    const { member } = exposedApi(state)
    const seen: unknown[] = []
    const stop = fn.parse(member('onJob')((job: unknown) => seen.push(job)))
    member('onQuitRequest')(() => seen.push('quit'))
    const stopReload = fn.parse(member('onReloadRequest')(() => seen.push('reload')))
    const stopReminders = fn.parse(member('onReminderOpen')((target: unknown) => seen.push(target)))
    const stopProgress = fn.parse(member('onProgress')((p: unknown) => seen.push(p)))
    for (const l of state().rendererListeners.get(EVENT_CHANNELS.job) ?? []) l({}, { id: 'w-1' })
    for (const l of state().rendererListeners.get(EVENT_CHANNELS.quitRequest) ?? []) l({})
    for (const l of state().rendererListeners.get(EVENT_CHANNELS.reloadRequest) ?? []) l({})
    for (const l of state().rendererListeners.get(EVENT_CHANNELS.reminderOpen) ?? [])
      l({}, { kind: 'domain', accountId: 'main', id: 'a.example' })
    for (const l of state().rendererListeners.get(EVENT_CHANNELS.progress) ?? [])
      l({}, { callId: 'c-1', loadedItems: 100 })
    expect(seen).toEqual([
      { id: 'w-1' },
      'quit',
      'reload',
      { kind: 'domain', accountId: 'main', id: 'a.example' },
      { callId: 'c-1', loadedItems: 100 },
    ])
    stop()
    stopReminders()
    stopProgress()
    stopReload()
    expect(state().rendererListeners.get(EVENT_CHANNELS.reloadRequest)).toEqual([])
    expect(state().rendererListeners.get(EVENT_CHANNELS.job)).toEqual([])
    expect(state().rendererListeners.get(EVENT_CHANNELS.reminderOpen)).toEqual([])
    expect(state().rendererListeners.get(EVENT_CHANNELS.progress)).toEqual([])
  })

  it('stays small: at most 12 KB', () => {
    expect(statSync(BUILT_PRELOAD).size).toBeLessThanOrEqual(12 * 1024)
  })
})
