/**
 * The zone file the window's BIND export downloads (components/dns/bind-file.ts, the function
 * BindPanel.vue calls), given to BIND's own `named-checkzone` (Debian's bind9-utils, installed by
 * scripts/setup.sh) for every domain zone of the sandbox: accepted, with the domain's
 * nameservers as its apex NS and no byte-order mark. The same file without the nameservers, or
 * with the mark download() gives text, is what BIND refuses.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { windowBindFile } from '../../src/renderer/src/components/dns/bind-file'
import { parse } from '@shared/dns/records'
import { seedState } from '../../src/sandbox/seed'

const haveCheckzone = spawnSync('named-checkzone', ['-v']).error === undefined
const asciiZone = (name: string) => new URL(`http://${name}`).hostname

function checkzone(dir: string, zone: string, bytes: Uint8Array): { code: number | null; out: string } {
  const file = join(dir, `${asciiZone(zone)}.zone`)
  writeFileSync(file, bytes)
  const r = spawnSync('named-checkzone', [asciiZone(zone), file], { encoding: 'utf8' })
  return { code: r.status, out: r.stdout }
}

describe.skipIf(!haveCheckzone)(
  'the window’s BIND export, checked by named-checkzone (skipped: bind9-utils not installed)',
  () => {
    const state = seedState({ now: new Date('2026-06-01T00:00:00Z') })
    const dir = mkdtempSync(join(tmpdir(), 'window-bind-'))

    it('is accepted for every domain zone of the sandbox, its apex NS the domain’s nameservers', () => {
      expect(state.domains.length).toBeGreaterThan(3)
      for (const d of state.domains) {
        const file = windowBindFile(parse(d.dns.svc1.records), d.domainname, d.dns.svc1.ttl, d.ns)
        expect(file.fileName).toBe(`${d.domainname}.zone`)
        for (const ns of d.ns) expect(file.text).toContain(`@ IN NS ${ns.replace(/\.$/, '')}.`)
        expect({ zone: d.domainname, ...checkzone(dir, d.domainname, file.bytes) }).toMatchObject({
          zone: d.domainname,
          code: 0,
        })
      }
    })

    it('without the nameservers (what the window wrote before) BIND refuses the file', () => {
      const d = state.domains.find((x) => x.ns.length > 0)
      if (!d) throw new Error('the sandbox seeds no domain with nameservers')
      const file = windowBindFile(parse(d.dns.svc1.records), d.domainname, d.dns.svc1.ttl, undefined)
      const checked = checkzone(dir, d.domainname, file.bytes)
      expect(checked.code).not.toBe(0)
      expect(checked.out).toMatch(/NS/)
    })

    it('with the byte-order mark the download of text gets (what the window sent before) BIND refuses the file', () => {
      const d = state.domains[0]
      if (!d) throw new Error('the sandbox seeds no domain')
      const file = windowBindFile(parse(d.dns.svc1.records), d.domainname, d.dns.svc1.ttl, d.ns)
      expect([...file.bytes.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf])
      const withMark = new Uint8Array([0xef, 0xbb, 0xbf, ...file.bytes])
      expect(checkzone(dir, d.domainname, withMark).code).not.toBe(0)
    })
  },
)
