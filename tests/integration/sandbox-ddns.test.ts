/**
 * The sandbox's dynamic DNS update address answers as the updaters its users publish expect
 * (tests/fixtures/live/README.md): the parameters by query or as a form POST, `status=<n>` then a
 * reason line, and repeated updates of a domain refused as an overload (503), not as another
 * error (9). Real HTTP over loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { DDNS_BURST } from '../../src/sandbox/ddns'
import { nsFlavour } from '../../src/sandbox/nameservers'

let sb: Sandbox
let domain: string
const password = 'ddns-Pass-7'
const address = () => `${new URL(sb.url).origin}/cgi-bin/dyn.fcg`
const zoneOf = () => {
  const d = sb.state.domains.find((x) => x.domainname === domain)!
  const f = nsFlavour(d)
  return f === 'svc1' || f === 'svc11' ? d.dns[f].records : ''
}

describe('the dynamic DNS update address', () => {
  beforeAll(async () => {
    sb = await startSandbox({ domains: 6 })
    const d = sb.state.domains.find((x) => nsFlavour(x) === 'svc1')!
    domain = d.domainname
    d.dynamicdns = 1
    d.ddnsPassword = password
  })
  afterAll(async () => {
    await sb?.close()
  })

  it('takes the update as a form POST, as some updaters send it, and answers the status then the reason', async () => {
    const res = await fetch(address(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ d: domain, p: password, h: 'www', i: '198.51.100.61' }).toString(),
    })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('status=0\nOK\n')
    expect(zoneOf()).toMatch(/^a www 198\.51\.100\.61$/m)
    const wrong = await fetch(address(), {
      method: 'POST',
      body: new URLSearchParams({ d: domain, p: 'nope', h: 'www', i: '198.51.100.62' }),
    })
    expect(await wrong.text()).toBe('status=4\npassword mismatch\n')
  })

  it('refuses repeated updates of a domain as an overload (status 503, as a published updater documents it), not as another error or as busy', async () => {
    const texts: string[] = []
    for (let i = 0; i < DDNS_BURST.updates + 1; i++) {
      const url = `${address()}?d=${encodeURIComponent(domain)}&p=${password}&h=www&i=198.51.100.${70 + i}`
      texts.push(await (await fetch(url)).text())
    }
    // One update was made by the test before; the burst's last ones are refused as an overload.
    expect(texts.at(-1)).toBe('status=503\ntoo many accesses; try again later\n')
    expect(texts.filter((t) => t.startsWith('status=9') || t.startsWith('status=5\n'))).toEqual([])
    expect(texts[0]).toBe('status=0\nOK\n')
  })
})
