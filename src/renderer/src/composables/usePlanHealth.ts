/**
 * The zone's health after a planned save, for the DNS editor's plan review: the offline rules
 * first, the findings the save introduces first among them; then the rules that ask DNS (SPF
 * lookups through includes, targets with no address, MX/NS at a CNAME), run in main, whose
 * findings replace the offline ones. Both once the plan has been painted and the window is idle:
 * the plan is what was asked for, and the offline rules over a 5,000-record zone took 30 ms of
 * the review's frame (issue 40).
 */
import { computed, ref, shallowRef, watch, type Ref } from 'vue'
import type { Plan } from '@shared/dns/plan'
import type { Row } from '@shared/dns/records'
import { indexZone, planFindings, zoneFindings, type HealthFinding } from '@shared/dns/health/rules'
import { invoke, type ErrorData } from '../data/bridge'
import { whenIdleAfterPaint } from '../lib/after-next-paint'

export interface PlanHealthInputs {
  zone: () => string
  /** The plan on show; a new one asks again, none clears what was asked. */
  pendingPlan: Ref<Plan | undefined>
  /** The zone's records as loaded. */
  loadedRecords: () => string | undefined
  /** The loaded zone's own findings, worked out once per load. */
  loadedHealth: () => HealthFinding[] | undefined
  /** The edit: its rows and its records text. */
  rows: () => Row[]
  editedRecords: () => string
}

export function usePlanHealth(input: PlanHealthInputs) {
  const planHealth = shallowRef<HealthFinding[]>()
  const askedHealth = shallowRef<HealthFinding[]>()
  const askingHealth = ref(false)
  /** Why main could not ask DNS: said in words, the system's code after them (never the code alone). */
  const healthAskFailed = ref<ErrorData>()
  let healthAsk = 0
  watch(input.pendingPlan, async (p) => {
    const asking = ++healthAsk
    planHealth.value = undefined
    askedHealth.value = undefined
    healthAskFailed.value = undefined
    askingHealth.value = Boolean(p && input.loadedRecords() !== undefined)
    if (!p || input.loadedRecords() === undefined) return
    await whenIdleAfterPaint()
    const before = input.loadedRecords()
    const loadedHealth = input.loadedHealth()
    if (asking !== healthAsk || !loadedHealth || before === undefined) return
    planHealth.value = planFindings(loadedHealth, zoneFindings(indexZone(input.rows(), input.zone())))
    const r = await invoke('dns.health', { zone: input.zone(), before, after: input.editedRecords() })
    if (asking !== healthAsk) return
    askingHealth.value = false
    if (r.ok) askedHealth.value = r.value
    else healthAskFailed.value = r.error
  })
  const shownHealth = computed(() => askedHealth.value ?? planHealth.value)
  return { shownHealth, askingHealth, healthAskFailed }
}
