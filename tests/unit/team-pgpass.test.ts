/**
 * The password file read by the app itself with libpq's rules (issue 50 point 5: pg's own reader
 * prints a deprecation warning on stderr at every use): which file, which line, escapes, wildcards,
 * comments, and a file others may read ignored as libpq ignores it. Real files in a temporary folder.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { passfileOf, passwordFromPassfile, passwordFromPassfileText } from '../../src/main/team/pgpass'

const target = { host: 'db.example.net', port: 5432, database: 'hosting_admin_team', user: 'hosting_admin' }
const dir = mkdtempSync(join(tmpdir(), 'pgpass-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('which password file', () => {
  it('PGPASSFILE first, else ~/.pgpass under HOME; on Windows %APPDATA%\\postgresql\\pgpass.conf', () => {
    expect(passfileOf({ PGPASSFILE: '/etc/team.pgpass', HOME: '/home/a' }, 'linux')).toBe('/etc/team.pgpass')
    expect(passfileOf({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.pgpass')
    expect(passfileOf({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toMatch(/postgresql[\\/]pgpass\.conf$/)
  })
})

describe('which line (libpq passwordFromFile)', () => {
  it('the first line whose four fields match wins; * matches anything; # starts a comment', () => {
    const text = [
      '# the team database',
      'db.example.net:5432:other_db:hosting_admin:not-this',
      'db.example.net:5432:hosting_admin_team:hosting_admin:first',
      '*:*:*:*:second',
    ].join('\n')
    expect(passwordFromPassfileText(text, target)).toBe('first')
    expect(passwordFromPassfileText(text, { ...target, database: 'else' })).toBe('second')
    expect(passwordFromPassfileText('db.example.net:*:*:hosting_admin:any-port\n', { ...target, port: 6543 })).toBe(
      'any-port',
    )
  })

  it('no matching line, a line with too few fields, or a different port: no password', () => {
    expect(passwordFromPassfileText('db.example.net:5433:*:*:x\n', target)).toBeUndefined()
    expect(passwordFromPassfileText('db.example.net:5432:hosting_admin_team:hosting_admin\n', target)).toBeUndefined()
    expect(passwordFromPassfileText('', target)).toBeUndefined()
    // Matching is exact, not a prefix.
    expect(passwordFromPassfileText('db.example.ne:5432:*:*:x\n', target)).toBeUndefined()
    expect(passwordFromPassfileText('db.example.net.:5432:*:*:x\n', target)).toBeUndefined()
  })

  it('backslash escapes : and \\ in every field; the password ends at the first unescaped :', () => {
    expect(passwordFromPassfileText('db.example.net:5432:*:*:a\\:b\\\\c:ignored\n', target)).toBe('a:b\\c')
    expect(passwordFromPassfileText('*:*:*:us\\:er:pw\n', { ...target, user: 'us:er' })).toBe('pw')
    // An IPv6 address matches with its colons as they are (libpq compares them character by character).
    expect(passwordFromPassfileText('::1:5432:*:*:six\n', { ...target, host: '::1' })).toBe('six')
  })

  it('Windows line ends are stripped; an empty host or the default socket folder is "localhost"', () => {
    expect(passwordFromPassfileText('*:*:*:*:crlf\r\n', target)).toBe('crlf')
    expect(passwordFromPassfileText('localhost:5432:*:*:local\n', { ...target, host: '/var/run/postgresql' })).toBe(
      'local',
    )
    expect(passwordFromPassfileText('localhost:5432:*:*:local\n', { ...target, host: '' })).toBe('local')
  })
})

describe('the file on disk', () => {
  it('read when only its owner may read it (0600)', async () => {
    const file = join(dir, 'good.pgpass')
    writeFileSync(file, 'db.example.net:5432:hosting_admin_team:hosting_admin:s3cret\n', { mode: 0o600 })
    chmodSync(file, 0o600)
    expect(await passwordFromPassfile(target, { PGPASSFILE: file }, 'linux')).toEqual({
      found: true,
      password: 's3cret',
      file,
    })
  })

  it('ignored, saying why, when its group or others may read it, or when it is not a plain file; absent: nothing found', async () => {
    const open = join(dir, 'open.pgpass')
    writeFileSync(open, '*:*:*:*:s3cret\n')
    chmodSync(open, 0o644)
    expect(await passwordFromPassfile(target, { PGPASSFILE: open }, 'linux')).toEqual({
      found: false,
      file: open,
      ignored: 'groupOrWorldAccess',
    })
    const folder = join(dir, 'folder.pgpass')
    mkdirSync(folder, { mode: 0o700 })
    expect(await passwordFromPassfile(target, { PGPASSFILE: folder }, 'linux')).toEqual({
      found: false,
      file: folder,
      ignored: 'notPlainFile',
    })
    const none = join(dir, 'none.pgpass')
    expect(await passwordFromPassfile(target, { PGPASSFILE: none }, 'linux')).toEqual({ found: false, file: none })
  })
})
