/**
 * The domain-list bench's baseline (issue 54 point 1), run in the page: the same rows and the
 * same shown columns as the app's domain list, in a bare virtual table — Vue and the virtualiser
 * the app uses (@tanstack/vue-virtual), the same row height and overscan, plain text cells, one
 * filter box and a sort button per column; no app, no router, no store, no Pinia. The bench
 * times it the way it times the app's list, so a figure of the app's is read as a ratio to
 * this one measured in the same Chromium in the same run.
 *
 * Bundled by esbuild in bench/domain-list-baseline.ts and loaded into an empty page;
 * `window.__bareShow(rows)` draws the rows and marks `domains:data` and `domains:painted` as the
 * app's DomainsView does.
 */
import { computed, createApp, defineComponent, h, nextTick, ref, shallowRef } from 'vue'
import { useVirtualizer } from '@tanstack/vue-virtual'

/** One row: the text of each shown column, in the columns' order. */
export type BareRow = string[]

declare global {
  interface Window {
    __bareShow?: (columns: string[], rows: BareRow[]) => Promise<void>
  }
}

const ROW_HEIGHT = 32
const OVERSCAN = 4

const columns = shallowRef<string[]>([])
const rows = shallowRef<BareRow[]>([])

const BareTable = defineComponent(() => {
  const filter = ref('')
  const sortColumn = ref(0)
  const sortDir = ref<1 | -1>(1)
  const ordered = computed(() => {
    const c = sortColumn.value
    const dir = sortDir.value
    return [...rows.value].sort((a, b) => (a[c]! < b[c]! ? -dir : a[c]! > b[c]! ? dir : 0))
  })
  const shown = computed(() => {
    const q = filter.value.trim().toLowerCase()
    return q ? ordered.value.filter((r) => r.some((cell) => cell.toLowerCase().includes(q))) : ordered.value
  })
  const scroller = ref<HTMLElement | null>(null)
  const virtualizer = useVirtualizer(
    computed(() => ({
      count: shown.value.length,
      getScrollElement: () => scroller.value,
      estimateSize: () => ROW_HEIGHT,
      overscan: OVERSCAN,
    })),
  )
  const sortBy = (c: number) => {
    if (sortColumn.value === c) sortDir.value = sortDir.value === 1 ? -1 : 1
    else {
      sortColumn.value = c
      sortDir.value = 1
    }
  }
  return () => {
    const items = virtualizer.value.getVirtualItems()
    const top = items[0]?.start ?? 0
    const last = items.at(-1)
    const bottom = last ? virtualizer.value.getTotalSize() - last.end : 0
    const span = columns.value.length + 1
    return h('div', [
      h('input', {
        type: 'search',
        value: filter.value,
        onInput: (e: Event) => (filter.value = e.target instanceof HTMLInputElement ? e.target.value : ''),
      }),
      h('span', `${shown.value.length} of ${rows.value.length}`),
      h('div', { ref: scroller, class: 'table-scroll', style: { maxHeight: '540px', overflow: 'auto' } }, [
        h('table', [
          h('thead', [
            h('tr', [
              h('th', ''),
              ...columns.value.map((label, c) =>
                h('th', [
                  h('button', { type: 'button', 'aria-label': `Sort by ${label}`, onClick: () => sortBy(c) }, label),
                ]),
              ),
            ]),
          ]),
          h('tbody', [
            top > 0 ? h('tr', { style: { height: `${top}px` } }, [h('td', { colspan: span })]) : null,
            ...items.map((item) => {
              const row = shown.value[item.index]!
              return h('tr', { key: row[0] }, [
                h('td', [h('input', { type: 'checkbox' })]),
                ...row.map((cell) => h('td', cell)),
              ])
            }),
            bottom > 0 ? h('tr', { style: { height: `${bottom}px` } }, [h('td', { colspan: span })]) : null,
          ]),
        ]),
      ]),
    ])
  }
})

const style = document.createElement('style')
style.textContent = `
  body { font: 14px system-ui, sans-serif; margin: 8px; }
  table { table-layout: fixed; width: 100%; border-collapse: collapse; }
  td, th { height: ${ROW_HEIGHT - 1}px; padding: 0 6px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; border-bottom: 1px solid #ddd; }
  th:first-child, td:first-child { width: 2rem; }
`
document.head.append(style)
const root = document.createElement('div')
document.body.append(root)
createApp(BareTable).mount(root)

window.__bareShow = async (cols, data) => {
  columns.value = cols
  performance.mark('domains:data')
  rows.value = data
  await nextTick()
  // As after-next-paint.ts: a frame, then a task after it.
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
  performance.mark('domains:painted')
}
