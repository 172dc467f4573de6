import { confirmAndStart, discardJobs } from '../data/start-jobs'

/** Starting write jobs main prepared, after one question naming every account (data/start-jobs.ts), or discarding them. */
export function useStartJobs() {
  return { confirmAndStart, discardJobs }
}
