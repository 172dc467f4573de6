/**
 * The messages between main and the store's worker thread (store-worker.ts, worker-entry.ts).
 * Both ends are this app's code in one process: messages are structured clones of plain data.
 */
import type { ErrorData } from '@shared/errors'
import type { HistoryMethod, StoreMethod } from './store-async'
import type { StoreProblem } from './types'

/** What the worker is started with. */
export interface StoreWorkerData {
  file: string
  integrityCheck: boolean
  /** A fixed clock for the moved-aside file's name and the start's pruning (tests); else the system's. */
  clockAt?: string | undefined
}

export type StoreRequest =
  | { id: number; target: 'store'; method: StoreMethod; args: unknown[] }
  | { id: number; target: 'history'; method: HistoryMethod; args: unknown[] }

/**
 * A long list's items, sent ahead of the call that takes them in parts of a few thousand: one
 * structured clone of a 10,000-item list holds main's thread some 50 ms, a part a few.
 */
export interface StoreItemsPart {
  kind: 'items'
  transfer: number
  items: unknown[]
}
/** In a call's arguments, in the place of the items sent ahead in parts. */
export interface ItemsSentAhead {
  itemsSentAhead: number
}
/** Main asks for the next part of a long answer once it took in the last (answers in parts, below). */
export interface NextAnswerPart {
  kind: 'nextPart'
  id: number
}
export type StoreMessage = StoreRequest | StoreItemsPart | NextAnswerPart

export type StoreReply =
  | { kind: 'ready'; file: string; problem: StoreProblem | undefined }
  /** The store could not be opened at all (not even in memory). */
  | { kind: 'failed'; error: ErrorData }
  | { kind: 'answer'; id: number; ok: true; value: unknown }
  | { kind: 'answer'; id: number; ok: false; error: ErrorData }
  /**
   * A long list answered in parts (the export of 30,000 zone files): each part goes when main asks
   * for it, so main's thread takes in one part a turn, not the whole list in one (Node hands a
   * port's queued messages over in one go, so parts sent all at once would hold it as long).
   */
  | {
      kind: 'answerPart'
      id: number
      items: unknown[]
      last: boolean
      /** With the last part of a stored list's items: its other members (the answer is them with `items`). */
      rest?: Record<string, unknown>
    }
  /** A problem met while working (a row skipped), for main's log. */
  | { kind: 'problem'; problem: StoreProblem }
