/**
 * The store's worker thread: opens the portfolio store (SQLite, synchronous) here, off
 * Electron's main thread, and answers main's calls one at a time, in order.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { z } from 'zod'
import { toErrorData } from '../base/app-error'
import { openPortfolioStore } from './index'
import type { StoreMessage, StoreReply, StoreWorkerData } from './worker-protocol'

if (!parentPort) throw new Error('the store worker runs in a worker thread')
const port = parentPort
const post = (m: StoreReply) => port.postMessage(m)
/** A list answered beyond this many items goes back in parts of this many (worker-protocol.ts). */
const ANSWER_PART_ITEMS = 1_000

/**
 * The items of an answer long enough to go in parts: a long list, or a stored list's items (a
 * 100,000-domain list taken in by main in one clone held its thread for hundreds of ms), with
 * the stored list's other members (when it was read, whether whole) sent with the last part.
 */
function longItems(value: unknown): { items: unknown[]; rest: Record<string, unknown> | undefined } | undefined {
  if (Array.isArray(value)) return value.length > ANSWER_PART_ITEMS ? { items: value, rest: undefined } : undefined
  if (typeof value !== 'object' || value === null || !('items' in value) || !Array.isArray(value.items))
    return undefined
  if (value.items.length <= ANSWER_PART_ITEMS) return undefined
  const { items, ...rest } = value
  return { items, rest }
}

function start(data: StoreWorkerData): void {
  let store: ReturnType<typeof openPortfolioStore>
  try {
    store = openPortfolioStore(data.file, {
      integrityCheck: data.integrityCheck,
      onProblem: (problem) => post({ kind: 'problem', problem }),
      ...(data.clockAt ? { now: () => new Date(data.clockAt ?? '') } : {}),
    })
  } catch (err) {
    post({ kind: 'failed', error: toErrorData(err) })
    return
  }
  post({ kind: 'ready', file: store.file, problem: store.problem })
  // Items sent ahead of their call, by transfer: they come before the call, in order.
  const sentAhead = new Map<number, unknown[]>()
  const withItems = (arg: unknown): unknown => {
    if (typeof arg !== 'object' || arg === null || !('itemsSentAhead' in arg) || typeof arg.itemsSentAhead !== 'number')
      return arg
    const items = sentAhead.get(arg.itemsSentAhead) ?? []
    // Transfers are numbered in order: an earlier one still here lost its call (it could not be sent).
    for (const transfer of sentAhead.keys()) if (transfer <= arg.itemsSentAhead) sentAhead.delete(transfer)
    return items
  }
  // Long answers still to go, by call: their next part goes when main asks for it.
  const answering = new Map<number, { items: unknown[]; at: number; rest: Record<string, unknown> | undefined }>()
  const sendPart = (id: number) => {
    const a = answering.get(id)
    if (!a) return
    const items = a.items.slice(a.at, a.at + ANSWER_PART_ITEMS)
    a.at += ANSWER_PART_ITEMS
    const last = a.at >= a.items.length
    if (last) answering.delete(id)
    post({ kind: 'answerPart', id, items, last, ...(last && a.rest ? { rest: a.rest } : {}) })
  }
  port.on('message', (m: StoreMessage) => {
    if ('kind' in m && m.kind === 'nextPart') {
      sendPart(m.id)
      return
    }
    if ('kind' in m) {
      const got = sentAhead.get(m.transfer)
      if (got) for (const item of m.items) got.push(item)
      else sentAhead.set(m.transfer, m.items)
      return
    }
    const req = m
    try {
      const owner = req.target === 'history' ? store.history : store
      // The store checks every argument it is given (index.ts): a call is passed on as it came.
      const method: unknown = Reflect.get(owner, req.method)
      if (typeof method !== 'function') throw new Error(`no store method ${req.method}`)
      const value: unknown = Reflect.apply(method, owner, req.args.map(withItems))
      const long = longItems(value)
      if (long) {
        answering.set(req.id, { ...long, at: 0 })
        sendPart(req.id)
      } else post({ kind: 'answer', id: req.id, ok: true, value })
    } catch (err) {
      post({ kind: 'answer', id: req.id, ok: false, error: toErrorData(err) })
    }
  })
}

const workerDataSchema = z.object({
  file: z.string().min(1),
  integrityCheck: z.boolean(),
  clockAt: z.string().optional(),
}) satisfies z.ZodType<StoreWorkerData>
start(workerDataSchema.parse(workerData))
