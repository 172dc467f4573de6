/**
 * Nothing moves under a pressed pointer. Pressing a button takes the focus from the field being
 * typed in, and leaving a field may change what is above the button (a hint goes, a check's
 * message comes): the button then moved between the press and the release, and the release
 * landed on something else, so the click was lost (issue 53: "Review changes…" jumped 35 px).
 *
 * While a button is pressed, it is kept where it was pressed, by a translation that cancels
 * whatever moved it (a translation moves where it is hit as well as where it is drawn); the
 * release lets it go after its click. The page's layout itself is left as the change made it.
 */

interface Held {
  button: HTMLElement
  /** Where the button's top was at the press, in the window. */
  top: number
  left: number
  /** The translation applied now. */
  dy: number
  dx: number
}

export function keepPressedButtonsSteady(doc: Document): void {
  let held: Held | undefined
  const observer = new MutationObserver((records) => {
    // The translation this sets is a mutation too: measured again for it alone, a button whose box
    // does not follow its translation (hidden, a dialog closed by its own click before the
    // release) was moved further each time, a mutation each time, and the window hung (CI, the key
    // replaced in its dialog over the DNS editor).
    if (records.every((m) => m.target === held?.button && m.attributeName === 'style')) return
    hold()
  })

  /** Measures the button where the layout puts it now and moves it back under the pointer. */
  function hold() {
    if (!held) return
    // Gone, or no longer drawn (its dialog closed): nothing is under the pointer to keep.
    if (!held.button.isConnected || held.button.getClientRects().length === 0) return release()
    const r = held.button.getBoundingClientRect()
    const dy = held.top - (r.top - held.dy)
    const dx = held.left - (r.left - held.dx)
    if (Math.abs(dy - held.dy) < 0.5 && Math.abs(dx - held.dx) < 0.5) return
    held.dy = dy
    held.dx = dx
    held.button.style.translate = dx === 0 && dy === 0 ? '' : `${dx}px ${dy}px`
  }
  function release() {
    observer.disconnect()
    if (held) held.button.style.translate = ''
    held = undefined
  }

  doc.addEventListener(
    'pointerdown',
    (e) => {
      release()
      if (e.button !== 0 || !(e.target instanceof Element)) return
      const button = e.target.closest('button')
      if (!button || button.disabled) return
      const r = button.getBoundingClientRect()
      held = { button, top: r.top, left: r.left, dy: 0, dx: 0 }
      // A mutation's callback runs as a microtask after the change, so the button is back before
      // the release is hit-tested, however soon it comes.
      observer.observe(doc.body, { subtree: true, childList: true, attributes: true, characterData: true })
    },
    true,
  )
  // After the release's click (dispatched in the same task as the release).
  const releaseLater = () => setTimeout(release, 0)
  doc.addEventListener('pointerup', releaseLater, true)
  doc.addEventListener('pointercancel', releaseLater, true)
  doc.defaultView?.addEventListener('blur', release)
}
