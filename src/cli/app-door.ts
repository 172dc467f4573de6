/**
 * The command's way in while the app runs: the app holds the data folder, so the command sends
 * its calls to the app's door (src/main/door/cli-server.ts) and the app's own router, runner and
 * journal carry them out, exactly as its window's. The token comes from the folder's holder file.
 * The door is checked before anything is sent to it (door-path.ts): a socket of the user's in a
 * directory only the user can enter, never one another local user could have put there.
 */
import { connect, type Socket } from 'node:net'
import { doorRefusal } from '../main/door/door-path'
import type { Progress, Result } from '@shared/ipc/contract'
import { callOver } from '@shared/ipc/call-over'
import { doorLine, fromAppSchema, type FromApp, type ToApp } from '@shared/ipc/door-messages'
import { isJobRunning, type JobView } from '@shared/jobs'
import type { Session } from './session-api'
import { APP_GONE, AppClosed } from './app-closed'

/** The app's router answers every call with a Result; anything else means the door is broken. */
function isResult(v: unknown): v is Result<unknown> {
  return typeof v === 'object' && v !== null && 'ok' in v && typeof v.ok === 'boolean'
}
/** A job as the app's runner sends it to its watchers (the window's JOB_CHANNEL carries the same). */
function isJob(v: unknown): v is JobView {
  return (
    typeof v === 'object' &&
    v !== null &&
    'id' in v &&
    typeof v.id === 'string' &&
    'status' in v &&
    typeof v.status === 'string' &&
    'items' in v &&
    Array.isArray(v.items)
  )
}
function isProgress(v: unknown): v is Progress {
  return typeof v === 'object' && v !== null && 'loadedItems' in v && typeof v.loadedItems === 'number'
}

/** The advertised door is not the user's alone: nothing was sent to it. */
class DoorRefused extends Error {
  constructor(readonly reason: string) {
    super(`door refused: ${reason}`)
    this.name = 'DoorRefused'
  }
}

export async function sessionThroughApp(
  socketPath: string,
  token: string,
  onProgress?: (p: Progress) => void,
): Promise<Session> {
  // Checked before the token leaves: another user's socket would receive it and every call.
  const refusal = await doorRefusal(socketPath)
  if (refusal) throw new DoorRefused(refusal)
  const socket: Socket = connect(socketPath)
  socket.setEncoding('utf8')
  const pending = new Map<number, (r: Result<unknown>) => void>()
  const waiting = new Map<string, { resolve: (job: JobView) => void; reject: (e: AppClosed) => void }>()
  const seen = new Map<string, JobView>()
  /** Progress listeners of single calls, by call id (Call's onProgress). */
  const following = new Map<string, (p: Progress) => void>()
  let nextId = 0
  let welcomed: (() => void) | undefined
  let refused: ((err: Error) => void) | undefined
  let buffered = ''
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))

  function received(line: string) {
    let parsed: FromApp
    try {
      parsed = fromAppSchema.parse(JSON.parse(line))
    } catch {
      socket.destroy()
      return
    }
    if (parsed.t === 'welcome') welcomed?.()
    else if (parsed.t === 'result') {
      pending.get(parsed.id)?.(
        isResult(parsed.result) ? parsed.result : { ok: false, error: { kind: 'internal', code: 'cli.appAnswer' } },
      )
      pending.delete(parsed.id)
    } else if (parsed.t === 'progress') {
      if (isProgress(parsed.p)) {
        onProgress?.(parsed.p)
        following.get(parsed.p.callId)?.(parsed.p)
      }
    } else if (isJob(parsed.job)) {
      const job = parsed.job
      seen.set(job.id, job)
      if (!isJobRunning(job) && job.status !== 'prepared') waiting.get(job.id)?.resolve(job)
    }
  }
  socket.on('data', (chunk: string) => {
    buffered += chunk
    let at = buffered.indexOf('\n')
    while (at >= 0) {
      const line = buffered.slice(0, at)
      buffered = buffered.slice(at + 1)
      if (line.trim()) received(line)
      at = buffered.indexOf('\n')
    }
  })
  socket.on('error', (err) => refused?.(err))
  socket.on('close', () => {
    refused?.(new Error('closed'))
    // The app went away mid-call: nothing more is known of what it was doing.
    for (const resolve of pending.values()) resolve({ ok: false, error: APP_GONE })
    pending.clear()
    for (const w of waiting.values()) w.reject(new AppClosed())
    waiting.clear()
  })

  await new Promise<void>((resolve, reject) => {
    welcomed = resolve
    refused = reject
    socket.write(doorLine({ t: 'hello', token }))
  })
  refused = undefined

  const request = (channel: string, payload: unknown): Promise<Result<unknown>> =>
    new Promise((resolve) => {
      if (socket.destroyed) return resolve({ ok: false, error: APP_GONE })
      const id = nextId++
      pending.set(id, resolve)
      const message: ToApp = { t: 'call', id, channel, payload }
      socket.write(doorLine(message))
    })
  await request('jobs.watch', {})
  const call = callOver(async (channel, payload, onCallProgress) => {
    const callId =
      onCallProgress &&
      typeof payload === 'object' &&
      payload !== null &&
      'callId' in payload &&
      typeof payload.callId === 'string'
        ? payload.callId
        : undefined
    if (callId && onCallProgress) following.set(callId, onCallProgress)
    try {
      return await request(channel, payload)
    } finally {
      if (callId) following.delete(callId)
    }
  })
  let closing: Promise<void> | undefined
  return {
    call,
    viaApp: true,
    ended(job) {
      const now = seen.get(job.id)
      if (now && !isJobRunning(now) && now.status !== 'prepared') return Promise.resolve(now)
      return new Promise((resolve, reject) => waiting.set(job.id, { resolve, reject }))
    },
    close: () =>
      (closing ??= (async () => {
        socket.end()
        await closed
      })()),
  }
}
