/** The rules a key file and a systemd credential are checked by (src/cli/key-source.ts), on the facts fstat gives. */
import { describe, expect, it } from 'vitest'
import { keyOfText, modeText, refusalOf, type FileFacts } from '../../src/cli/key-source'

const ME = 1000
const file = (mode: number, uid = ME, isFile = true): FileFacts => ({ isFile, mode: 0o100000 | mode, uid })
const codeOf = (facts: FileFacts, rule: 'key-file' | 'credential', me: number | undefined = ME) =>
  refusalOf('/k', facts, rule, me)?.code

describe('a key file', () => {
  it.each([0o600, 0o400, 0o700])('%o, owned by the user: used', (mode) =>
    expect(codeOf(file(mode), 'key-file')).toBeUndefined(),
  )
  it.each([0o640, 0o604, 0o644, 0o660, 0o606])('%o: refused, group or others may read it', (mode) =>
    expect(codeOf(file(mode), 'key-file')).toBe('cli.key.openToOthers'),
  )
  it.each([0o620, 0o602, 0o622, 0o630])('%o: refused, group or others may write it (not read it)', (mode) =>
    expect(codeOf(file(mode), 'key-file')).toBe('cli.key.writableByOthers'),
  )
  it.each([0o610, 0o601])('%o: refused, group or others have a permission on it', (mode) =>
    expect(codeOf(file(mode), 'key-file')).toBe('cli.key.openMode'),
  )
  it('owned by another user, even root: refused', () => {
    expect(codeOf(file(0o600, 0), 'key-file')).toBe('cli.key.notOwner')
    expect(refusalOf('/k', file(0o600, 65534), 'key-file', ME)).toEqual({
      code: 'cli.key.notOwner',
      params: { file: '/k', owner: 65534, me: ME },
    })
  })
  it('not a regular file: refused, whatever its mode', () =>
    expect(codeOf(file(0o600, ME, false), 'key-file')).toBe('cli.key.notFile'))
  it('where there are no user ids (Windows): only "a regular file" is checked', () => {
    expect(refusalOf('/k', file(0o666, 0), 'key-file', undefined)).toBeUndefined()
    expect(refusalOf('/k', file(0o600, 0, false), 'key-file', undefined)?.code).toBe('cli.key.notFile')
  })
})

describe('a systemd credential', () => {
  it('0400 owned by the service user (systemd chowns it on ramfs): used', () =>
    expect(codeOf(file(0o400), 'credential')).toBeUndefined())
  it('0440 owned by root (systemd gives the user an ACL; its mask shows as the group bits): used', () =>
    expect(codeOf(file(0o440, 0), 'credential')).toBeUndefined())
  it('readable by others: refused', () => expect(codeOf(file(0o444, 0), 'credential')).toBe('cli.key.openToOthers'))
  it('writable by others: refused as such', () =>
    expect(codeOf(file(0o402), 'credential')).toBe('cli.key.writableByOthers'))
  it('owned by a third user: refused', () => expect(codeOf(file(0o400, 65534), 'credential')).toBe('cli.key.notOwner'))
})

describe('the key in a file', () => {
  it.each([
    ['key\n', 'key'],
    ['key', 'key'],
    ['  key\r\n', 'key'],
    ['\uFEFFkey\n', 'key'],
  ])('%j is the key %j', (text, key) => expect(keyOfText('/k', text)).toEqual({ ok: true, key }))
  it.each(['', '\n', '   '])('%j is empty', (text) =>
    expect(keyOfText('/k', text)).toMatchObject({ ok: false, problem: { code: 'cli.key.empty' } }),
  )
  it.each(['key\nkey', 'export KEY=key', 'key\u0000', 'a\tb'])('%j is not one key', (text) =>
    expect(keyOfText('/k', text)).toMatchObject({ ok: false, problem: { code: 'cli.key.notAKey' } }),
  )
  it('a problem names the file, never its text', () =>
    expect(JSON.stringify(keyOfText('/k', 'secret one'))).not.toContain('secret'))
})

it('modes are written as chmod takes them', () => {
  expect(modeText(0o100644)).toBe('0644')
  expect(modeText(0o100600)).toBe('0600')
  expect(modeText(0o40)).toBe('0040')
})
