/**
 * Resolves once the window has painted what is on it now: a frame, then a task after it (a
 * callback of requestAnimationFrame runs before that frame's paint). A hidden window paints no
 * frame, so there it resolves after a task.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, 0)
    if (document.visibilityState === 'hidden') later()
    else requestAnimationFrame(later)
  })
}

/** The longest an idle wait lasts in a window that is never idle: the work then runs anyway. */
const IDLE_WAIT_MS = 250

/**
 * Resolves once the window has painted what is on it now and then has nothing more pressing to
 * do: the tasks already queued and the user's input go first. Work that can wait for the screen a
 * user asked for (a plan's health, the domain list's detail columns) starts here, so a click
 * right after the paint is not held behind it.
 */
export async function whenIdleAfterPaint(): Promise<void> {
  await afterNextPaint()
  if (typeof requestIdleCallback !== 'function' || document.visibilityState === 'hidden') return
  await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: IDLE_WAIT_MS }))
}
