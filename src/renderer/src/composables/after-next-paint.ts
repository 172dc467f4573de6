/**
 * Resolves once the window has painted what is on it now: a frame, then a task after it (a
 * callback of requestAnimationFrame runs before that frame's paint). Work that can wait for the
 * screen a user asked for (a plan's health, the domain list's detail columns) starts there.
 * A hidden window paints no frame, so there it resolves after a task.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, 0)
    if (document.visibilityState === 'hidden') later()
    else requestAnimationFrame(later)
  })
}
