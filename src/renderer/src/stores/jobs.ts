/**
 * The write jobs main runs, as the renderer sees them: read once at start, then kept up to date
 * by main's job events. A reload of the window changes nothing in main: the jobs are read again.
 */
import { defineStore } from 'pinia'
import { markRaw, shallowRef } from 'vue'
import { isJobRunning, unknownItemCount, type JobView } from '@shared/jobs'
import type { WriteEndpointName } from '@shared/endpoints/names'
import { invoke, onJobUpdate } from '../data/bridge'

export const useJobsStore = defineStore('jobs', () => {
  const jobs = shallowRef<JobView[]>([])
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
    const r = await invoke('jobs.list', {})
    if (r.ok) for (const j of r.value) put(j)
  }

  const running = () => jobs.value.filter(isJobRunning)
  /** Jobs with an item whose outcome is unknown: marked in Writes and counted in the sidebar. */
  const needingAttention = () => jobs.value.filter((j) => j.status !== 'prepared' && unknownItemCount(j) > 0)
  /** The newest job of an account for some operations (a screen's own bulk job). */
  const latest = (accountId: string, operations: readonly WriteEndpointName[]) =>
    jobs.value.find((j) => j.accountId === accountId && operations.includes(j.operation))
  const byId = (id: string) => jobs.value.find((j) => j.id === id)

  return { jobs, watch, put, running, needingAttention, latest, byId }
})
