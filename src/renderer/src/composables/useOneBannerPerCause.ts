/**
 * One banner per cause on a screen: where several parts of a screen fail for one reason about an
 * account's key (the keychain locked, the key gone from it, the key refused) or its service (not
 * reached: a list and each of its detail reads alike, issue 53), the first banner
 * mounted says it and the others stay hidden; its Retry retries every part that failed so, and it
 * says the time of the list still shown whichever part's banner that time came with (the parts
 * fail in no fixed order: a detail read may speak first). Any other error is each part's own.
 */
import { computed, markRaw, onBeforeUnmount, reactive, watch } from 'vue'
import type { ErrorData } from '../data/bridge'

/**
 * Kinds whose cause is the same for every read of an account: its key, or the way to its service
 * (a service that is down refuses every read of the screen alike).
 */
const SHARED_CAUSES = new Set<ErrorData['kind']>([
  'keychain-unavailable',
  'no-key',
  'unauthorized',
  'network',
  'timeout',
])

interface Entry {
  id: number
  retry: () => (() => void) | undefined
  asOf: () => string | undefined
}

const byCause = reactive(new Map<string, Entry[]>())
let nextId = 0

/** The cause an error shares with others of the screen, or undefined when it is its own. */
export function causeOf(error: ErrorData, accountId: string | undefined): string | undefined {
  return SHARED_CAUSES.has(error.kind) ? `${accountId ?? ''}\u0000${error.kind}\u0000${error.code}` : undefined
}

export function useOneBannerPerCause(
  cause: () => string | undefined,
  retry: () => (() => void) | undefined,
  asOf: () => string | undefined = () => undefined,
) {
  const entry: Entry = markRaw({ id: nextId++, retry, asOf })
  let joined: string | undefined
  const leave = () => {
    if (joined === undefined) return
    const rest = (byCause.get(joined) ?? []).filter((e) => e.id !== entry.id)
    if (rest.length > 0) byCause.set(joined, rest)
    else byCause.delete(joined)
    joined = undefined
  }
  watch(
    cause,
    (c) => {
      leave()
      if (c === undefined) return
      byCause.set(c, [...(byCause.get(c) ?? []), entry])
      joined = c
    },
    { immediate: true },
  )
  onBeforeUnmount(leave)
  const others = () => {
    const c = cause()
    return c === undefined ? [entry] : (byCause.get(c) ?? [entry])
  }
  /** Whether this banner is the one that speaks for its cause. */
  const shown = computed(() => others()[0]?.id === entry.id)
  /** Retry for every part that failed for this cause (undefined when none can be retried). */
  const retryAll = computed(() => {
    const fns = others()
      .map((e) => e.retry())
      .filter((f): f is () => void => f !== undefined)
    return fns.length > 0 ? () => fns.forEach((f) => f()) : undefined
  })
  /** When the list still shown was read, as any part failing for this cause knows it. */
  const asOfAny = computed(() =>
    others()
      .map((e) => e.asOf())
      .find((t) => t !== undefined),
  )
  return { shown, retryAll, asOfAny }
}
