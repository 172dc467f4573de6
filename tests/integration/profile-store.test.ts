import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { english } from '../helpers/english'
import { ProfileStore } from '../../src/main/accounts/profile-store'
import { DEFAULT_NS_TYPES, confirmsByName, type AccountProfile } from '@shared/accounts'

const kinds = {
  a: { path: 'webservers', label: 'Web' },
  b: { path: 'managedservers', label: 'Managed' },
  c: { path: 'cloudservers', label: 'Cloud' },
}
const profile = (n: number): AccountProfile => ({
  id: `acct-${n}`,
  name: `Account ${n}`,
  baseUrl: 'https://api.example.com/v1',
  serverKinds: kinds,
  nsTypes: DEFAULT_NS_TYPES,
  timeoutMs: 120_000,
  colour: 'slate',
  environment: 'none',
  readOnly: false,
})

/** The profiles file as these checks read it: its list of accounts. */
const accountsFile = z.object({ accounts: z.array(z.unknown()) })

describe('account profiles file', () => {
  it('writes atomically: the file is always complete JSON and no temp file is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const store = new ProfileStore(join(dir, 'accounts.json'))
    await store.load()
    await store.update((d) => d.accounts.push(profile(1)))
    const onDisk = accountsFile.parse(JSON.parse(readFileSync(join(dir, 'accounts.json'), 'utf8')))
    expect(onDisk.accounts).toHaveLength(1)
    expect(readdirSync(dir)).toEqual(['accounts.json'])
  })

  it('two (and twenty) quick saves lose none of them, and a new store reads them all back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    const store = new ProfileStore(file)
    await store.load()
    const writes = Array.from({ length: 20 }, (_, i) => store.update((d) => d.accounts.push(profile(i))))
    await Promise.all(writes)
    const again = new ProfileStore(file)
    const data = await again.load()
    expect(data.accounts.map((a) => a.id)).toEqual(Array.from({ length: 20 }, (_, i) => `acct-${i}`))
    expect(readdirSync(dir)).toEqual(['accounts.json'])
  })

  it('a file that is not valid is moved aside with a timestamp and reported, never overwritten', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    writeFileSync(file, '{"version": 1, "accounts": [ truncated')
    const store = new ProfileStore(file)
    const data = await store.load()
    expect(data.accounts).toEqual([])
    expect(english(store.problem!)).toMatch(/could not be read/)
    const moved = readdirSync(dir).find((f) => f.startsWith('accounts.json.corrupt-'))
    expect(moved).toBeDefined()
    expect(readFileSync(join(dir, moved!), 'utf8')).toBe('{"version": 1, "accounts": [ truncated')
    expect(store.problem?.params.movedTo).toBe(join(dir, moved!))
    // Saving afterwards writes a new file and leaves the preserved one alone.
    await store.update((d) => d.accounts.push(profile(1)))
    expect(readFileSync(join(dir, moved!), 'utf8')).toBe('{"version": 1, "accounts": [ truncated')
  })

  it('valid JSON of the wrong shape is treated the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    writeFileSync(file, JSON.stringify({ version: 1, activeId: null, accounts: [{ id: 'x', name: '' }] }))
    const store = new ProfileStore(file)
    await store.load()
    expect(store.problem).toBeDefined()
  })

  it('one bad profile costs only itself: the others load, the bad one is named, and the whole file is copied aside before a save rewrites it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    const text = JSON.stringify({
      version: 1,
      activeId: 'acct-3',
      accounts: [profile(1), { ...profile(2), baseUrl: 42 }, profile(3)],
    })
    writeFileSync(file, text)
    const store = new ProfileStore(file)
    const data = await store.load()
    expect(data.accounts.map((a) => a.id)).toEqual(['acct-1', 'acct-3'])
    expect(data.activeId).toBe('acct-3')
    expect(store.problem?.code).toBe('accountsFile.someUnreadable')
    expect(english(store.problem!)).toContain('#2 (acct-2)')
    const copy = readdirSync(dir).find((f) => f.startsWith('accounts.json.corrupt-'))
    expect(copy).toBeDefined()
    await store.update((d) => d.accounts.push(profile(4)))
    expect(readFileSync(join(dir, copy!), 'utf8')).toBe(text)
    const written = z
      .object({ accounts: z.array(z.object({ id: z.string() })) })
      .parse(JSON.parse(readFileSync(file, 'utf8')))
    expect(written.accounts.map((a) => a.id)).toEqual(['acct-1', 'acct-3', 'acct-4'])
  })

  it('a second account with an id already used is refused at load: the first is kept, the repeat named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    writeFileSync(
      file,
      JSON.stringify({ version: 1, activeId: 'acct-1', accounts: [profile(1), { ...profile(1), name: 'Impostor' }] }),
    )
    const store = new ProfileStore(file)
    const data = await store.load()
    expect(data.accounts).toHaveLength(1)
    expect(data.accounts[0]?.name).toBe('Account 1')
    expect(store.problem?.params).toMatchObject({ count: 1, accounts: '#2 (acct-1)' })
  })

  it('a change that would make the file invalid is refused and nothing is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    const store = new ProfileStore(file)
    await store.load()
    await store.update((d) => d.accounts.push(profile(1)))
    expect(() => store.update((d) => d.accounts.push({ ...profile(2), baseUrl: 'http://evil.example.com' }))).toThrow()
    expect(accountsFile.parse(JSON.parse(readFileSync(file, 'utf8'))).accounts).toHaveLength(1)
  })

  it('a profile saved before the DNS product words existed loads with the spec’s words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    const { nsTypes: _dropped, ...old } = profile(7)
    writeFileSync(file, JSON.stringify({ version: 1, activeId: 'acct-7', accounts: [old] }))
    const store = new ProfileStore(file)
    const data = await store.load()
    expect(store.problem).toBeUndefined()
    expect(data.accounts[0]?.nsTypes).toEqual({
      svc1: { word: 'svc1', label: 'svc1' },
      svc11: { word: 'svc11', label: 'svc11' },
    })
  })

  it('a profile saved before accounts had marks loads untagged, slate, writable, without typing the name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    const { colour: _c, environment: _e, readOnly: _r, ...old } = profile(8)
    writeFileSync(file, JSON.stringify({ version: 1, activeId: 'acct-8', accounts: [old] }))
    const store = new ProfileStore(file)
    const data = await store.load()
    expect(store.problem).toBeUndefined()
    expect(data.accounts[0]).toMatchObject({ colour: 'slate', environment: 'none', readOnly: false })
    expect(confirmsByName(data.accounts[0]!)).toBe(false)
  })

  it('a profile with marks and options is kept as saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'))
    const file = join(dir, 'accounts.json')
    const store = new ProfileStore(file)
    await store.load()
    await store.update((d) =>
      d.accounts.push({
        ...profile(9),
        colour: 'purple',
        environment: 'production',
        confirmByName: false,
        readOnly: true,
      }),
    )
    const again = await new ProfileStore(file).load()
    expect(again.accounts[0]).toMatchObject({
      colour: 'purple',
      environment: 'production',
      confirmByName: false,
      readOnly: true,
    })
    // A colour outside the palette makes the change invalid: refused, nothing written.
    expect(() => store.update((d) => Object.assign(d.accounts[0]!, { colour: 'chartreuse' }))).toThrow()
  })
})
