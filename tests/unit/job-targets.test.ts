/**
 * A write's target (src/main/jobs/targets.ts): a server named by its id and by its name is one
 * target where the app can tell the id from the name, and the name as given where it cannot.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultLabel, targetOf, type ServerIdOf } from '../../src/main/jobs/targets'
import { inThread } from '../../src/main/store/store-async'
import { storedServerIds } from '../../src/main/jobs/server-ids'
import { parseEndpointParams } from '@shared/endpoints/table'
import { openPortfolioStore } from '../../src/main/store'

/** The parameters as the runner has them: validated by the table (an id becomes a number). */
function params(webid: number | string): Record<string, unknown> {
  const r = parseEndpointParams('servers.expiration.extend', { kind: 'a', webid, months: 1 })
  if (!r.ok) throw new Error(JSON.stringify(r.issues))
  return r.value
}

const known: ServerIdOf = (kind, name) => (kind === 'a' && name === 'aaurora1' ? '13' : undefined)

describe('the target of a server write', () => {
  it('by id, as a number or as digits, and by a name the app knows: one target', () => {
    expect(targetOf('servers.expiration.extend', params(13), known)).toBe('kind=a&webid=13')
    expect(targetOf('servers.expiration.extend', params('13'), known)).toBe('kind=a&webid=13')
    expect(targetOf('servers.expiration.extend', params('aaurora1'), known)).toBe('kind=a&webid=13')
  })

  it('a name the app cannot resolve is the name as given', () => {
    expect(targetOf('servers.expiration.extend', params('newsite1'), known)).toBe('kind=a&webid=newsite1')
    expect(targetOf('servers.expiration.extend', params('aaurora1'))).toBe('kind=a&webid=aaurora1')
  })

  it('only server paths are resolved: the server a service IP setting names stays as sent', () => {
    const asked: string[] = []
    const spy: ServerIdOf = (kind, name) => {
      asked.push(`${kind}/${name}`)
      return undefined
    }
    // A service IP setting's target is the service IP (its facts); the server it names is a setting.
    expect(targetOf('svcips.setting.set', { vipid: 4, webid: 13, domainname: 'a.com' }, spy)).toBe('vipid=4')
    expect(targetOf('domains.expiration.renew', { domain: 'a.com', years: 1 }, spy)).toBe('domain=a.com')
    expect(asked).toEqual([])
  })

  it('is labelled by what the item named it with', () => {
    expect(defaultLabel(params('aaurora1'))).toBe('aaurora1')
    expect(defaultLabel(params(13))).toBe('13')
  })
})

describe('names to ids from the stored server lists', () => {
  const dir = mkdtempSync(join(tmpdir(), 'job-targets-'))
  const store = openPortfolioStore(join(dir, 'portfolio.db'))
  afterAll(() => store.close())
  const at = '2030-01-01T00:00:00.000Z'
  const server = (webid: string, webname: string) => ({
    webid,
    webname,
    paid: '1',
    starttime: '2029-01-01',
    expirationdate: '2031-01-01',
    autorenew: 0,
    autorenew_all: 0,
    autorenew_server: 0,
    plan: 'S10',
  })
  store.putList('acct', 'servers.list', { kind: 'a' }, [server('13', 'aaurora1'), server('14', 'abasil2')], at)
  store.putList(
    'acct',
    'servers.autorenew.list',
    { kind: 'b' },
    [{ webid: '21', webname: 'bcedar1', autorenew: 0, autorenew_all: 0, autorenew_server: 1 }],
    at,
  )

  it('the full list first, then the expiration and auto-renewal lists; only the account and kind asked', async () => {
    const ids = await storedServerIds(inThread(store), 'acct')
    expect(ids('a', 'abasil2')).toBe('14')
    expect(ids('b', 'bcedar1')).toBe('21')
    expect(ids('b', 'aaurora1')).toBeUndefined()
    expect(ids('c', 'aaurora1')).toBeUndefined()
    expect((await storedServerIds(inThread(store), 'other'))('a', 'aaurora1')).toBeUndefined()
  })

  it('a store that cannot be read says nothing, and says why', async () => {
    const closed = openPortfolioStore(join(dir, 'closed.db'))
    closed.close()
    const errors: unknown[] = []
    expect((await storedServerIds(inThread(closed), 'acct', (e) => errors.push(e)))('a', 'aaurora1')).toBeUndefined()
    expect(errors).toHaveLength(1)
  })
})
