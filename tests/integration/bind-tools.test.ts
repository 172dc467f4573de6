/**
 * The zone files `dns export --bind` writes, given to BIND itself (Debian's bind9 and bind9-utils,
 * installed by scripts/setup.sh): named-checkzone accepts the export of every zone of the sandbox;
 * named, started on a loopback port, loads them all; a zone transfer (AXFR with dig) from it gives
 * the record set the service holds. And every zone read back from its own export (BIND or the
 * records format) plans no change.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import dnsPacket, { type Answer } from 'dns-packet'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatOf, readZoneFile, zoneAsBind } from '../../src/cli/zone-file'
import { fromBind } from '@shared/dns/bind'
import { isEmptyPlan, plan } from '@shared/dns/plan'
import { parse, serialiseRow } from '@shared/dns/records'
import { inServiceSpelling } from '@shared/dns/service-spelling'
import { SERVICE_NAMESERVERS } from '../../src/sandbox/nameservers'
import { seedState } from '../../src/sandbox/seed'
import { startOnFreePorts } from '../../support/free-port'

const has = (cmd: string) => spawnSync(cmd, ['-v']).error === undefined
const NAMED = ['/usr/sbin/named', 'named'].find(has)
const haveBind = has('named-checkzone') && NAMED !== undefined

/** A zone transfer (AXFR over TCP, RFC 5936) from 127.0.0.1:port: every record, the SOA first and last. */
async function axfr(port: number, zone: string): Promise<Answer[]> {
  const socket = connect(port, '127.0.0.1')
  socket.setTimeout(10_000, () => socket.destroy(new Error(`AXFR ${zone}: no answer`)))
  socket.write(dnsPacket.streamEncode({ type: 'query', id: 1, flags: 0, questions: [{ type: 'AXFR', name: zone }] }))
  const answers: Answer[] = []
  let buf = Buffer.alloc(0)
  const chunks: AsyncIterable<unknown> = socket
  for await (const chunk of chunks) {
    if (!Buffer.isBuffer(chunk)) throw new Error(`AXFR ${zone}: the socket gave text, not bytes`)
    buf = Buffer.concat([buf, chunk])
    while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
      const msg = dnsPacket.streamDecode(buf)
      buf = buf.subarray(2 + buf.readUInt16BE(0))
      const rcode = (msg.flags ?? 0) & 0xf
      if (rcode !== 0) throw new Error(`AXFR ${zone}: rcode ${rcode}`)
      answers.push(...(msg.answers ?? []))
      if (answers.length > 1 && answers.at(-1)?.type === 'SOA') {
        socket.destroy()
        return answers
      }
    }
  }
  throw new Error(`AXFR ${zone}: ended before its last SOA`)
}

/** Bytes as one quoted character-string, \DDD for anything outside printable ASCII. */
const quotedBytes = (b: Buffer) =>
  `"${[...b].map((c) => (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c ? `\\${String(c).padStart(3, '0')}` : String.fromCharCode(c))).join('')}"`

/** The transferred records as a zone file, every name in full. */
function asZoneFile(answers: Answer[]): string {
  const fq = (n: string) => `${n}.`
  return answers
    .map((a) => {
      const head = `${fq(a.name)} ${'ttl' in a ? (a.ttl ?? 0) : 0} IN ${a.type}`
      switch (a.type) {
        case 'SOA':
          return `${head} ${fq(a.data.mname)} ${fq(a.data.rname)} ${a.data.serial} ${a.data.refresh} ${a.data.retry} ${a.data.expire} ${a.data.minimum}`
        case 'MX':
          return `${head} ${a.data.preference} ${fq(a.data.exchange)}`
        case 'SRV':
          return `${head} ${a.data.priority} ${a.data.weight} ${a.data.port} ${fq(a.data.target)}`
        case 'CAA':
          return `${head} ${a.data.flags} ${a.data.tag} ${quotedBytes(Buffer.from(a.data.value))}`
        case 'TXT':
          return `${head} ${(Array.isArray(a.data) ? a.data : [a.data]).map((s) => quotedBytes(Buffer.from(s))).join(' ')}`
        case 'CNAME':
        case 'NS':
        case 'PTR':
          return `${head} ${fq(a.data)}`
        case 'A':
        case 'AAAA':
          return `${head} ${a.data}`
        default:
          return `; ${a.type} not compared`
      }
    })
    .join('\n')
}

/** Every zone the sandbox serves: each domain's zone, and each free DNS zone, with the nameservers it is served by. */
const state = seedState({ now: new Date('2026-06-01T00:00:00Z') })
const zones = [
  ...state.domains.map((d) => ({ name: d.domainname, records: d.dns.svc1.records, ttl: d.dns.svc1.ttl, ns: d.ns })),
  ...state.freedns.map((f) => ({
    name: f.domainname,
    records: f.records,
    ttl: f.ttl,
    ns: [...SERVICE_NAMESERVERS.svc1],
  })),
]
const exported = zones.map((z) => ({ ...z, file: zoneAsBind(z.records, z.name, z.ttl, z.ns).text }))
const asciiZone = (name: string) => new URL(`http://${name}`).hostname

describe('zones exported as BIND, read by a zone file reader and by named', () => {
  it('the sandbox has the tricky zones this is about', () => {
    const all = zones.map((z) => z.records).join('\n')
    for (const line of [
      'mx @ 20',
      'mx @ backup.example.net. 30',
      'cname shop shops.example-cdn.net',
      'a * 192.0.2.80',
      'a 日本語 192.0.2.81',
      'caa @ 0 issue "letsencrypt.org"',
    ]) {
      expect(all).toContain(line)
    }
  })

  it('every zone read back from its own export, BIND or records, plans no change', () => {
    for (const z of exported) {
      const live = { records: z.records, ttl: z.ttl, nameservers: z.ns }
      expect(formatOf(z.file), z.name).toBe('bind')
      const back = readZoneFile(z.file, z.name, 'bind', live)
      const p = plan(parse(z.records), back.rows)
      expect({ zone: z.name, empty: isEmptyPlan(p), ttl: back.ttl, p }).toMatchObject({
        zone: z.name,
        empty: true,
        ttl: z.ttl,
      })
      // The apex NS are compared with the domain's nameservers: the same.
      expect(back.notes.map((n) => n.code).sort()).toEqual(['bind.apexNsSame', 'bind.soa'])
      expect(formatOf(z.records), z.name).toBe('records')
      expect(isEmptyPlan(plan(parse(z.records), readZoneFile(z.records, z.name, 'records', live).rows))).toBe(true)
    }
  })

  describe.skipIf(!haveBind)('with BIND (skipped: bind9 and bind9-utils not installed)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bind-tools-'))
    let named: ChildProcess | undefined
    let port = 0
    let log = ''

    beforeAll(async () => {
      chmodSync(dir, 0o755)
      for (const z of exported) writeFileSync(join(dir, `${asciiZone(z.name)}.zone`), z.file)
      // As root, named drops to the bind user (-u), which must own its working directory.
      const bindUid =
        process.getuid?.() === 0 ? Number(spawnSync('id', ['-u', 'bind'], { encoding: 'utf8' }).stdout.trim()) : NaN
      const user = Number.isInteger(bindUid) ? ['-u', 'bind'] : []
      // named binds the port it is told: one taken since it was found free (by another process) it
      // says is in use and runs on without it, so the test would ask another server. Then it is
      // started again on a new port (support/free-port.ts).
      port = await startOnFreePorts(async (free) => {
        const tried = await free()
        const conf = [
          'options {',
          `  directory "${dir}";`,
          `  pid-file "${join(dir, 'named.pid')}";`,
          `  session-keyfile "${join(dir, 'session.key')}";`,
          `  managed-keys-directory "${dir}";`,
          `  listen-on port ${tried} { 127.0.0.1; };`,
          '  listen-on-v6 { none; };',
          '  recursion no;',
          '  allow-transfer { 127.0.0.1; };',
          '};',
          ...exported.map((z) => `zone "${asciiZone(z.name)}" { type primary; file "${asciiZone(z.name)}.zone"; };`),
        ].join('\n')
        writeFileSync(join(dir, 'named.conf'), conf)
        if (Number.isInteger(bindUid))
          for (const f of [dir, ...readdirSync(dir).map((n) => join(dir, n))]) chownSync(f, bindUid, -1)
        if (NAMED === undefined) throw new Error('named is not installed')
        log = ''
        const child = spawn(NAMED, ['-g', '-c', join(dir, 'named.conf'), ...user], {
          stdio: ['ignore', 'ignore', 'pipe'],
        })
        named = child
        // Started when it says so; bounded by time, and by its exit.
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`named did not start:\n${log}`)), 20_000)
          child.stderr?.on('data', (b: Buffer) => {
            log += b.toString()
            if (/all zones loaded[\s\S]*running/.test(log)) {
              clearTimeout(timer)
              resolve()
            }
          })
          child.once('exit', (code) => {
            clearTimeout(timer)
            reject(new Error(`named exited (${code}):\n${log}`))
          })
        })
        if (!/creating TCP socket: address in use/.test(log)) return tried
        // All it printed read before the next start's log begins.
        const exited = new Promise((resolve) => child.once('close', resolve))
        child.kill('SIGKILL')
        await exited
        return undefined
      })
    }, 30_000)

    afterAll(() => {
      named?.kill('SIGKILL')
    })

    it('named-checkzone accepts the export of every zone', () => {
      for (const z of exported) {
        const r = spawnSync('named-checkzone', [asciiZone(z.name), join(dir, `${asciiZone(z.name)}.zone`)], {
          encoding: 'utf8',
        })
        expect({ zone: z.name, code: r.status, out: r.stdout }).toMatchObject({ zone: z.name, code: 0 })
      }
    })

    it('named loads every exported zone, and a zone transfer gives the records the service holds', async () => {
      expect(log).not.toMatch(/not loaded due to errors/)
      for (const z of exported) {
        const zone = asciiZone(z.name)
        const transferred = asZoneFile((await axfr(port, zone)).slice(0, -1))
        const served = fromBind(transferred, zone, { nameservers: z.ns })
        expect(served.report.map((n) => n.code).sort(), `${z.name}\n${transferred}`).toEqual([
          'bind.apexNsSame',
          'bind.soa',
        ])
        const live = parse(z.records)
        // Each served record, where the service holds one that means the same, is that row of the live zone.
        const mapped = inServiceSpelling(served.rows, live, zone)
        expect(mapped.filter((r) => !live.includes(r)).map(serialiseRow), z.name).toEqual([])
        // Served as the DNS serves: a set (a line the service stores twice is one record), with the
        // raw `mx @ <server> <priority>` the MX the service serves for it.
        const held = live.filter(
          (r) => r.kind === 'record' || (r.reason === 'unplaced' && r.unplaced === 'mx.withHost'),
        )
        expect(new Set(mapped.map(serialiseRow)), z.name).toEqual(new Set(held.map(serialiseRow)))
        expect(readFileSync(join(dir, `${zone}.zone`), 'utf8')).toBe(z.file)
      }
    })
  })
})
