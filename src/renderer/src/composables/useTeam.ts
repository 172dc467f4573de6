/**
 * Team mode as main knows it (issue 37 point 1): its status (this workstation, the database, who
 * is connected), a connection tested, connected and disconnected, one call at a time. The status's
 * error says it could not be read (or disconnecting failed); the form's, that a test or a connection
 * was refused. The form goes to main as is: the password in it is read from its field just before.
 */
import { ref } from 'vue'
import { invoke, type ErrorData, type Result } from '../data/bridge'
import type { PayloadOf } from '@shared/ipc/contract'
import type { TeamStatusView, TeamTestResult } from '@shared/team'

type TeamForm = PayloadOf<'team.connect'>

export function useTeam() {
  const status = ref<TeamStatusView>()
  const statusError = ref<ErrorData>()
  const formError = ref<ErrorData>()
  const busy = ref(false)

  function show(s: TeamStatusView): TeamStatusView {
    status.value = s
    statusError.value = undefined
    return s
  }

  async function loadStatus(): Promise<TeamStatusView | undefined> {
    const r = await invoke('team.status', {})
    if (!r.ok) return void (statusError.value = r.error)
    return show(r.value)
  }

  /** A test or a connection of the form: busy while it runs, its refusal the form's error. */
  async function sendForm<T>(call: () => Promise<Result<T>>): Promise<T | undefined> {
    busy.value = true
    formError.value = undefined
    const r = await call()
    busy.value = false
    if (!r.ok) return void (formError.value = r.error)
    return r.value
  }

  const test = (form: TeamForm): Promise<TeamTestResult | undefined> => sendForm(() => invoke('team.test', form))

  async function connect(form: TeamForm): Promise<TeamStatusView | undefined> {
    const s = await sendForm(() => invoke('team.connect', form))
    return s && show(s)
  }

  async function disconnect(): Promise<TeamStatusView | undefined> {
    busy.value = true
    const r = await invoke('team.disconnect', {})
    busy.value = false
    if (!r.ok) return void (statusError.value = r.error)
    return show(r.value)
  }

  return { status, statusError, formError, busy, loadStatus, test, connect, disconnect }
}
