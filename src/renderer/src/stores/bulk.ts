/**
 * The bulk run of the domain list (renewal, auto-renewal): held here rather than in the view, so
 * its progress and results are still there when the user comes back to the list.
 */
import { defineStore } from 'pinia'
import { bulkRunner } from '../lib/bulk'

export const useBulkStore = defineStore('bulk', () => ({ domains: bulkRunner() }))
