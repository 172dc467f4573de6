/**
 * The write jobs main runs, as the renderer sees them: read once at start, then kept up to date
 * by main's job events. A reload of the window changes nothing in main: the jobs are read again.
 * In team mode the other workstations' jobs come from the team's journal, read again each time
 * Writes opens (main sends no event of a colleague's job): a write a colleague has on its way is
 * listed with who, apart from this workstation's own. The actions on a job (pause, resume, stop,
 * a look in the service's log, a new job of some of its items) go through here too.
 */
import { defineStore } from 'pinia'
import { markRaw, shallowRef } from 'vue'
import { isJobRunning, unknownItemCount, type JobView } from '@shared/jobs'
import type { WriteEndpointName } from '@shared/endpoints/names'
import type { PayloadOf } from '@shared/ipc/contract'
import { invoke, onJobUpdate } from '../data/bridge'

type Who = { member: string; workstation: string }

export const useJobsStore = defineStore('jobs', () => {
  const jobs = shallowRef<JobView[]>([])
  /** Team mode: this workstation as the team names it (undefined: alone, or not known yet). */
  const here = shallowRef<Who>()
  let started = false

  function put(job: JobView) {
    const others = jobs.value.filter((j) => j.id !== job.id)
    jobs.value = [markRaw(job), ...others].sort((a, b) =>
      (b.startedAt ?? b.createdAt).localeCompare(a.startedAt ?? a.createdAt),
    )
  }

  /** Reads the jobs and follows their changes; once per window. */
  async function watch(): Promise<void> {
    if (started) return
    started = true
    onJobUpdate(put)
    await invoke('jobs.watch', {})
    await readAgain()
  }

  /** Every job as main knows it now: in team mode, the colleagues' as the team's journal says now. */
  async function readAgain(): Promise<void> {
    const [list, team] = await Promise.all([invoke('jobs.list', {}), invoke('team.status', {})])
    if (team.ok)
      here.value = team.value.configured
        ? { member: team.value.member, workstation: team.value.workstation }
        : undefined
    if (list.ok) for (const j of list.value) put(j)
  }

  const running = () => jobs.value.filter(isJobRunning)
  /** Jobs with an item whose outcome is unknown: marked in Writes and counted in the sidebar. */
  const needingAttention = () => jobs.value.filter((j) => j.status !== 'prepared' && unknownItemCount(j) > 0)
  /** The newest job of an account for some operations (a screen's own bulk job). */
  const latest = (accountId: string, operations: readonly WriteEndpointName[]) =>
    jobs.value.find((j) => j.accountId === accountId && operations.includes(j.operation))
  const byId = (id: string) => jobs.value.find((j) => j.id === id)
  /** Team mode: the writes another member or workstation has on its way, with who (the team's journal). */
  const othersInFlight = () =>
    jobs.value.filter(
      (j) =>
        j.by !== undefined &&
        isJobRunning(j) &&
        (here.value === undefined || j.by.member !== here.value.member || j.by.workstation !== here.value.workstation),
    )

  const control = (jobId: string, action: 'pause' | 'resume' | 'stop') => invoke(`jobs.${action}`, { jobId })
  /** Asks the service's log about an item whose outcome is unknown. */
  const checkLog = (jobId: string, index: number) => invoke('jobs.checkLog', { jobId, index })
  /** A new job, prepared by main (validated there again) and started only once confirmed. */
  const prepare = (request: PayloadOf<'jobs.prepare'>) => invoke('jobs.prepare', request)

  return {
    jobs,
    watch,
    readAgain,
    put,
    running,
    needingAttention,
    latest,
    byId,
    othersInFlight,
    control,
    checkLog,
    prepare,
  }
})
