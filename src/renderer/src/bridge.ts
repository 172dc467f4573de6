/**
 * The renderer's only way to the main process: window.api, typed from the IPC contract.
 */
import type { WindowApi, Result } from '../../shared/ipc/contract'
import type { ErrorData } from '../../shared/errors'

declare global {
  interface Window {
    api: WindowApi
  }
}

export const api: WindowApi = window.api

export type { Result, ErrorData }

/** A fresh id for a cancellable job (listAll). */
export function newJobId(): string {
  return `job-${crypto.randomUUID()}`
}
