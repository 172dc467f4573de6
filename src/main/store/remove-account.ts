/**
 * Forgetting an account: every row it has in the store (lists and their items, zones, search
 * entries and, through the delete triggers, their trigram index rows; its history, snapshots,
 * reminders sent and served comparisons), in one transaction.
 */
import type { Connection } from './database'

export function removeAccount(conn: Connection, accountId: string): void {
  conn.write(() => {
    conn.run('DELETE FROM list_items WHERE list_id IN (SELECT id FROM lists WHERE account_id = ?)', [accountId])
    conn.run('DELETE FROM lists WHERE account_id = ?', [accountId])
    conn.run('DELETE FROM zone_search WHERE zone_id IN (SELECT id FROM zones WHERE account_id = ?)', [accountId])
    conn.run('DELETE FROM zones WHERE account_id = ?', [accountId])
    conn.run('DELETE FROM search WHERE account_id = ?', [accountId])
    conn.run('DELETE FROM history WHERE account_id = ?', [accountId])
    conn.run('DELETE FROM zone_snapshots WHERE account_id = ?', [accountId])
    conn.run('DELETE FROM reminders_sent WHERE account_id = ?', [accountId])
    conn.run('DELETE FROM served_results WHERE account_id = ?', [accountId])
  })
}
