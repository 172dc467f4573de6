/**
 * The messages between main and the store's worker thread (store-worker.ts, worker-entry.ts).
 * Both ends are this app's code in one process: messages are structured clones of plain data.
 */
import type { ErrorData } from '../../shared/errors'
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

export type StoreReply =
  | { kind: 'ready'; file: string; problem: StoreProblem | undefined }
  /** The store could not be opened at all (not even in memory). */
  | { kind: 'failed'; error: ErrorData }
  | { kind: 'answer'; id: number; ok: true; value: unknown }
  | { kind: 'answer'; id: number; ok: false; error: ErrorData }
  /** A problem met while working (a row skipped), for main's log. */
  | { kind: 'problem'; problem: StoreProblem }
