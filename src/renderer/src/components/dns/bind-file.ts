/**
 * The zone file the window's BIND export downloads. The domain's nameservers are written as the
 * apex NS (as `dns export --bind` in the command writes them): without an NS, BIND's
 * `named-checkzone` refuses the file. A free DNS zone has none to give, as in the command.
 * The file goes as UTF-8 bytes, without the byte-order mark download() puts before text for
 * spreadsheets: BIND reads a mark on line 1 as an unknown record type and loads nothing.
 */
import { toBind, type BindExport } from '@shared/dns/bind'
import type { Row } from '@shared/dns/records'

export function windowBindFile(
  rows: Row[],
  zone: string,
  ttl: number | undefined,
  nameservers: readonly string[] | undefined,
): BindExport & { fileName: string; bytes: Uint8Array<ArrayBuffer> } {
  const exported = toBind(rows, zone, ttl ?? 3600, { nameservers })
  return { ...exported, fileName: `${zone}.zone`, bytes: new TextEncoder().encode(exported.text) }
}
