/**
 * A column of DataTable.vue. In a module of its own: a type exported from a .vue file reads as
 * any to every other file's lint (the lint's TypeScript program sees a .vue file as its script
 * alone), while a .ts module is typed the same for vue-tsc and the lint.
 */
import type { RouteLocationRaw } from 'vue-router'

export interface Column<R> {
  /** The row's member the column shows, or a name of its own for a column given by `value` or a slot. */
  key: string
  label: string
  /** The cell's value for sorting and filtering; the row's member `key` when not given. */
  value?: (row: R) => string | number | undefined
  /** The cell's text; the value when not given. */
  format?: (row: R) => string
  sortable?: boolean
  /** Makes the cell a link. */
  link?: (row: R) => RouteLocationRaw
  /** A CSS width for the column (for example '30%' or '8rem'); the rest share what is left. */
  width?: string
  /** A class for the column's cells, when its text is laid out its own way (the domain list's nameservers, two lines). */
  cellClass?: string
  /** The cell's tooltip, such as the service's raw value behind a label (worked out for rows on screen only). */
  title?: (row: R) => string | undefined
  /** The column gives way when the table is narrower than this many pixels (a narrow window). */
  hideBelow?: number
  /**
   * The `hideBelow` of a column the user chose to show at any width: below it the column has been
   * kept on against the window's width, and one without a `width` keeps a least width of its own
   * (the table scrolls sideways) instead of sharing what the sized columns leave, nothing at 1024 px.
   */
  keptBelow?: number
}
