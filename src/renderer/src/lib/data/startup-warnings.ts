import { ref } from 'vue'
import type { ErrorData } from '../../data/bridge'

/** What main wants said once at start (the portfolio store begun afresh), asked for by main.ts. */
export const startupWarnings = ref<ErrorData[]>([])
