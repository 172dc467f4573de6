/**
 * Which job each account's domain list last started for its selected domains (a renewal, an
 * auto-renewal setting), so that coming back to the list shows it (the job itself lives in main;
 * stores/jobs.ts holds its state). "Bulk" is the bulk DNS change's word, not this.
 */
import { defineStore } from 'pinia'
import { reactive } from 'vue'

export const useSelectionJobsStore = defineStore('selection-jobs', () => ({
  domainJobs: reactive<Record<string, string>>({}),
}))
