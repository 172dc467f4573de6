/**
 * Settings main needs without a window (reminder thresholds, ...), one text value per key in
 * store_settings. What a value means is its owner's business: the owner checks it on reading.
 */
import { z } from 'zod'
import type { Connection } from './database'

const valueRow = z.object({ value: z.string() })

export function getSetting(conn: Connection, key: string): string | undefined {
  return conn.get(valueRow, 'SELECT value FROM store_settings WHERE key = ?', [key])?.value
}

export function putSetting(conn: Connection, key: string, value: string): void {
  conn.write(() =>
    conn.run(
      'INSERT INTO store_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    ),
  )
}
