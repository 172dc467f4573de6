/**
 * The DNS records model on a 5,000-record zone: parse + validate + plan + serialise.
 * Target: <= 50 ms in total.
 */
import { editRecord, parse, serialise } from '@shared/dns/records'
import { plan } from '@shared/dns/plan'
import { validateRows } from '@shared/dns/validate'
import type { BenchResult } from './report'
import { median } from './stats'

const RECORDS = 5000
const RUNS = 15

function zone(): string {
  const lines: string[] = []
  for (let i = 0; i < RECORDS; i++) {
    switch (i % 5) {
      case 0:
        lines.push(`a host${i} 192.0.${(i >> 8) & 255}.${i & 255}`)
        break
      case 1:
        lines.push(`aaaa host${i} 2001:db8::${i.toString(16)}`)
        break
      case 2:
        lines.push(`mx sub${i} mail${i}.example.com. ${i % 50}`)
        break
      case 3:
        lines.push(`txt host${i} "v=spf1 include:_spf${i}.example.com -all"`)
        break
      default:
        lines.push(`cname alias${i} target${i}.example.com.`)
    }
  }
  return lines.join('\n')
}

export async function benchDnsModel(): Promise<BenchResult> {
  const text = zone()
  const times: number[] = []
  let issues = 0
  for (let run = 0; run < RUNS + 2; run++) {
    const t0 = performance.now()
    const before = parse(text)
    // An edit of every 10th record, as a user's session might make.
    const after = before.map((r, i) =>
      r.kind === 'record' && i % 10 === 0 ? editRecord(r, { value: r.type === 'a' ? '198.51.100.1' : r.value }) : r,
    )
    issues = validateRows(after).length
    const p = plan(before, after)
    const out = serialise(after)
    const ms = performance.now() - t0
    if (run >= 2) times.push(ms) // two warm-up runs
    if (out.split('\n').length !== RECORDS || p.changed.length === 0) throw new Error('the model lost records')
  }
  const sorted = [...times].sort((a, b) => a - b)
  const medianMs = median(times)
  return {
    name: `DNS model, ${RECORDS}-record zone: parse + validate + plan + serialise`,
    lines: [
      `median of ${RUNS}: ${medianMs.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms  (target <= 50 ms; ${issues} validation issues found)`,
    ],
    ok: medianMs <= 50,
  }
}
