/** The state kept in a JSON file between runs (SandboxOptions.stateFile). */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import type { SandboxState } from './state'

/** The saved state, or undefined when there is no file to load. */
export function loadState(file: string | undefined): SandboxState | undefined {
  if (!file || !existsSync(file)) return undefined
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'))
  if (typeof data !== 'object' || data === null || !('version' in data) || data.version !== 1) {
    throw new Error(`${file} is not a sandbox state file (version 1).`)
  }
  // The file is the sandbox's own output; its version is all that is checked.
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the sandbox's own file (a test double's state), not the service's or the user's data
  return data as SandboxState
}

/** Writes a temporary file and renames it, so an interrupted save leaves the previous state whole. */
export function saveState(file: string | undefined, state: SandboxState): void {
  if (!file) return
  const tmp = `${file}.tmp`
  writeFileSync(tmp, JSON.stringify(state))
  renameSync(tmp, file)
}
