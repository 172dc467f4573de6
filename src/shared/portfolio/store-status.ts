/**
 * Whether the portfolio store answers (main/store/store-worker.ts): `up`; `down` while a worker
 * that ended on its own is started again; `gaveUp` once the restarts in a row are spent (the
 * window's Retry starts it again). While it is not up, zone saves are refused (no snapshot can be
 * kept first) and other writes' history rows wait for it to be back (the journal keeps what they
 * owe); the window says so.
 */
export interface StoreStatus {
  state: 'up' | 'down' | 'gaveUp'
  /** Restarts in a row since it was last up by itself or by Retry. */
  restarts: number
  /** Why the worker ended (the error's code or name, or its exit code). */
  reason?: string | undefined
  /** Up, but the history rows of writes made while it was down could not be written (the store error's code). */
  historyNotWritten?: string | undefined
}
