/**
 * Which bulk job each account's domain list last started, so that coming back to the list shows
 * it (the job itself lives in main; stores/jobs.ts holds its state).
 */
import { defineStore } from 'pinia'
import { reactive } from 'vue'

export const useBulkStore = defineStore('bulk', () => ({ domainJobs: reactive<Record<string, string>>({}) }))
