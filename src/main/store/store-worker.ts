/**
 * The portfolio store in a worker thread: SQLite's synchronous work (writing a 10,000-domain
 * list, checking every row it reads back, the search index) runs there, and main only awaits
 * the answers, so the window's IPC calls are not held behind a refresh. Calls are answered in
 * the order they were made (one connection, one thread): a write then a read sees the write.
 */
import { Worker } from 'node:worker_threads'
import { AppError } from '../base/app-error'
import type { ErrorData } from '@shared/errors'
import {
  HISTORY_METHODS,
  STORE_METHODS,
  type HistoryMethod,
  type HistoryStoreAsync,
  type PortfolioStoreAsync,
  type StoreMethod,
} from './store-async'
import type { ResourceLimits } from 'node:worker_threads'
import type { OpenOptions, StoreProblem } from './types'
import type { StoreStatus } from '@shared/portfolio/store-status'
import type {
  ItemsSentAhead,
  NextAnswerPart,
  StoreItemsPart,
  StoreReply,
  StoreRequest,
  StoreWorkerData,
} from './worker-protocol'

export interface WorkerStoreOptions extends Pick<OpenOptions, 'integrityCheck' | 'onProblem'> {
  /** The worker's script: the built app's `store-worker.js`; by default the TypeScript entry through tsx (tests, the bench). */
  workerUrl?: URL | undefined
  /** A fixed clock (tests): the moved-aside file's name and the start's pruning. */
  now?: (() => Date) | undefined
  /** How many times in a row a worker that ended on its own is started again before the store stays down (Retry starts it again). */
  maxRestarts?: number | undefined
  /** The store went down, came back or gave up (the window says so while it is down). */
  onStatus?: ((status: StoreStatus) => void) | undefined
  /** The worker's heap limits (tests make one run out of memory, as a real one may). */
  resourceLimits?: ResourceLimits | undefined
}

/** The store in its worker, with its liveness: what it says, and Retry. */
export interface WorkerStore extends PortfolioStoreAsync {
  status(): StoreStatus
  /** Starts a worker again now (after `gaveUp`, the window's Retry); answers the status after. */
  restart(): Promise<StoreStatus>
}

const DEFAULT_MAX_RESTARTS = 3
/** A worker up this long before it ended starts the count of restarts in a row afresh. */
const STAYED_UP_MS = 60_000

// A variable, not a literal: a bundler would otherwise take `new URL('./x', import.meta.url)` for an asset.
const SOURCE_BOOT = 'worker-boot.mjs'
const sourceWorkerUrl = () => new URL(SOURCE_BOOT, import.meta.url)

/** Items a call carries beyond this many go ahead of it in parts of this many (worker-protocol.ts). */
const PART_ITEMS = 1_000
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

interface Pending {
  resolve: (value: unknown) => void
  reject: (err: AppError) => void
}

/**
 * Opens the store in a new worker thread; resolves once it is open (or kept aside and made anew).
 * A worker that ends on its own (out of memory, a crash) fails the calls it had with
 * store.workerStopped (whether they were done is not known), and is started again, a bounded
 * number of times in a row; the store is `down` meanwhile and says so (onStatus).
 */
export function openStoreInWorker(file: string, opts: WorkerStoreOptions = {}): Promise<WorkerStore> {
  const data: StoreWorkerData = {
    file,
    integrityCheck: opts.integrityCheck ?? true,
    ...(opts.now ? { clockAt: opts.now().toISOString() } : {}),
  }
  const maxRestarts = opts.maxRestarts ?? DEFAULT_MAX_RESTARTS
  let worker: Worker
  const pending = new Map<number, Pending>()
  /** The parts of long answers taken in so far, by call. */
  const answerParts = new Map<number, unknown[]>()
  let nextId = 1
  /** Why calls fail now: the store closed for good, or a worker that ended and is not back yet. */
  let stopped: ErrorData | undefined
  let closed = false
  let status: StoreStatus = { state: 'up', restarts: 0 }
  let restarting: Promise<StoreStatus> | undefined
  let upSince = Date.now()
  // A call whose items go in parts lets main's other work run between them; the calls made
  // meanwhile wait behind it, so the worker still takes every call in the order it was made.
  let queue: Promise<void> = Promise.resolve()
  let queued = 0
  let nextTransfer = 1

  const stop = (error: ErrorData) => {
    stopped ??= error
    for (const p of pending.values()) p.reject(new AppError(error))
    pending.clear()
    answerParts.clear()
  }
  const setStatus = (next: StoreStatus) => {
    status = next
    opts.onStatus?.(next)
  }

  /** A worker started and its store opened; rejects when it could not be. Its end later is `ended`. */
  function startWorker(): Promise<{ file: string; problem: StoreProblem | undefined }> {
    const started = new Worker(opts.workerUrl ?? sourceWorkerUrl(), {
      workerData: data,
      ...(opts.resourceLimits ? { resourceLimits: opts.resourceLimits } : {}),
    })
    worker = started
    let ready = false
    let endReason: string | undefined
    return new Promise((resolveOpen, rejectOpen) => {
      started.on('error', (err) => {
        endReason = 'code' in err && typeof err.code === 'string' ? err.code : err.name
        if (!ready)
          rejectOpen(new AppError({ kind: 'internal', code: 'store.workerStopped', params: { reason: err.name } }))
      })
      started.on('exit', (code) => {
        if (!ready) {
          rejectOpen(new AppError({ kind: 'internal', code: 'store.closed' }))
          return
        }
        if (closed || worker !== started) return
        ended(endReason ?? `exit ${code}`)
      })
      started.on('message', (m: StoreReply) => {
        switch (m.kind) {
          case 'ready':
            ready = true
            resolveOpen({ file: m.file, problem: m.problem })
            return
          case 'failed':
            rejectOpen(new AppError(m.error))
            return
          case 'problem':
            opts.onProblem?.(m.problem)
            return
          case 'answerPart': {
            const got = answerParts.get(m.id) ?? []
            for (const item of m.items) got.push(item)
            if (!m.last) {
              answerParts.set(m.id, got)
              // The next part after a turn of main's loop: the window's calls are served between parts.
              setImmediate(() => {
                if (!stopped && worker === started)
                  started.postMessage({ kind: 'nextPart', id: m.id } satisfies NextAnswerPart)
              })
              return
            }
            answerParts.delete(m.id)
            const p = pending.get(m.id)
            pending.delete(m.id)
            p?.resolve(m.rest ? { ...m.rest, items: got } : got)
            return
          }
          case 'answer': {
            const p = pending.get(m.id)
            pending.delete(m.id)
            if (m.ok) p?.resolve(m.value)
            else p?.reject(new AppError(m.error))
          }
        }
      })
    })
  }

  /** The worker ended on its own: its calls fail, and it is started again while restarts in a row remain. */
  function ended(reason: string) {
    stop({ kind: 'internal', code: 'store.workerStopped', params: { reason } })
    // A worker that stayed up a while ended for a reason of its own, not as a start that keeps failing.
    const inARow = Date.now() - upSince < STAYED_UP_MS ? status.restarts : 0
    setStatus({ state: 'down', restarts: inARow, reason })
    void startAgain(false)
  }

  /** Starts one worker after another until one opens or the restarts in a row are spent; Retry (`byUser`) counts afresh and tries at least once. */
  function startAgain(byUser: boolean): Promise<StoreStatus> {
    restarting ??= (async () => {
      let restarts = byUser ? 0 : status.restarts
      let reason = status.reason
      const limit = byUser ? Math.max(1, maxRestarts) : maxRestarts
      while (!closed && restarts < limit) {
        restarts++
        try {
          await startWorker()
          stopped = undefined
          upSince = Date.now()
          setStatus({ state: 'up', restarts })
          return status
        } catch (err) {
          reason = err instanceof AppError ? String(err.data.params?.reason ?? err.data.code) : 'unknown'
        }
      }
      if (!closed) setStatus({ state: 'gaveUp', restarts, reason })
      return status
    })().finally(() => {
      restarting = undefined
    })
    return restarting
  }

  return startWorker().then(({ file: openedFile, problem }) => client(openedFile, problem))

  function send(
    req: Omit<StoreRequest, 'id'> & { target: 'store' | 'history'; method: StoreMethod | HistoryMethod },
  ): Promise<unknown> {
    if (stopped) return Promise.reject(new AppError(stopped))
    const id = nextId++
    const long = req.args.findIndex((a) => Array.isArray(a) && a.length > PART_ITEMS)
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      if (long < 0 && queued === 0) {
        worker.postMessage({ ...req, id })
        return
      }
      queued++
      queue = queue.then(async () => {
        try {
          let args = req.args
          const items = args[long]
          if (Array.isArray(items)) {
            // Read part by part as they go: a list handed to the store is not changed by its caller after.
            const transfer = nextTransfer++
            for (let i = 0; i < items.length && !stopped; i += PART_ITEMS) {
              const part: StoreItemsPart = { kind: 'items', transfer, items: items.slice(i, i + PART_ITEMS) }
              worker.postMessage(part)
              await turn()
            }
            const placeholder: ItemsSentAhead = { itemsSentAhead: transfer }
            args = args.map((a, i) => (i === long ? placeholder : a))
          }
          // Stopped meanwhile: the call was answered with the reason already.
          if (!stopped) worker.postMessage({ ...req, args, id })
        } catch (err) {
          // A call that could not be sent (an argument that cannot be cloned) fails alone; the
          // queue goes on for the calls behind it.
          pending.delete(id)
          reject(
            new AppError({
              kind: 'internal',
              code: 'store.notSent',
              params: { reason: err instanceof Error ? err.name : 'unknown' },
            }),
          )
        } finally {
          queued--
        }
      })
    })
  }

  function client(openedFile: string, problem: StoreProblem | undefined): WorkerStore {
    // Each method answers what the same method of the store answered in the worker: the one place
    // where the answer's type is taken on trust (both ends are this code; the store checked it).
    const storeCall =
      (method: StoreMethod) =>
      (...args: unknown[]) =>
        send({ target: 'store', method, args })
    const historyCall =
      (method: HistoryMethod) =>
      (...args: unknown[]) =>
        send({ target: 'history', method, args })
    const history = Object.fromEntries(HISTORY_METHODS.map((m) => [m, historyCall(m)])) as unknown as HistoryStoreAsync
    const methods = Object.fromEntries(STORE_METHODS.map((m) => [m, storeCall(m)])) as unknown as Omit<
      PortfolioStoreAsync,
      'file' | 'problem' | 'history' | 'close'
    >
    return {
      ...methods,
      file: openedFile,
      problem,
      history,
      status: () => status,
      restart: () => (status.state === 'up' ? Promise.resolve(status) : startAgain(true)),
      async close() {
        if (closed) return
        closed = true
        await restarting
        if (!stopped) await send({ target: 'store', method: 'close', args: [] }).catch(() => undefined)
        stopped = undefined
        stop({ kind: 'internal', code: 'store.closed' })
        await worker.terminate()
      },
    }
  }
}
