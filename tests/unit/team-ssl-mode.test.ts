/**
 * TLS by default (issue 50 point 5): which hosts are this machine, and the mode `team init` and
 * the window choose when nobody named one: verify-full with a CA file, require to any other host,
 * clear text to loopback only or by name.
 */
import { describe, expect, it } from 'vitest'
import { chooseSslMode, defaultSslMode, isLoopbackHost } from '@shared/team/ssl-mode'

describe('loopback', () => {
  it('127.0.0.0/8, ::1 however written, localhost and a socket folder are this machine', () => {
    for (const h of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      'localhost',
      'LOCALHOST',
      'localhost.',
      '/var/run/postgresql',
    ])
      expect(isLoopbackHost(h), h).toBe(true)
  })
  it('any other address or name is across a network', () => {
    for (const h of [
      '192.0.2.2',
      '10.0.0.1',
      '0.0.0.0',
      '128.0.0.1',
      '::2',
      'fd00::1',
      'db.example.net',
      'localhost.example.net',
      'app.localhost',
      '1127.0.0.1',
    ])
      expect(isLoopbackHost(h), h).toBe(false)
  })
})

describe('the mode when none is named', () => {
  it('verify-full with a CA file, else require to a host that is not loopback, else clear text', () => {
    expect(defaultSslMode('db.example.net', '/etc/ssl/team-ca.pem')).toBe('verify-full')
    expect(defaultSslMode('127.0.0.1', '/etc/ssl/team-ca.pem')).toBe('verify-full')
    expect(defaultSslMode('db.example.net', undefined)).toBe('require')
    expect(defaultSslMode('192.0.2.2', undefined)).toBe('require')
    expect(defaultSslMode('127.0.0.1', undefined)).toBe('disable')
  })
})

describe('team init flags', () => {
  it('no flag: the default; --sslmode as named; --unencrypted alone is clear text, to any host', () => {
    expect(chooseSslMode({ host: 'db.example.net' })).toEqual({ ok: true, mode: 'require' })
    expect(chooseSslMode({ host: 'db.example.net', caFile: '/ca.pem' })).toEqual({ ok: true, mode: 'verify-full' })
    expect(chooseSslMode({ host: '127.0.0.1', sslmode: 'require' })).toEqual({ ok: true, mode: 'require' })
    expect(chooseSslMode({ host: 'db.example.net', sslmode: 'verify-full' })).toEqual({ ok: true, mode: 'verify-full' })
    expect(chooseSslMode({ host: 'db.example.net', unencrypted: true })).toEqual({ ok: true, mode: 'disable' })
  })
  it('contradictions refused rather than guessed: clear text with TLS flags, a CA file that require would ignore', () => {
    expect(chooseSslMode({ host: 'db.example.net', unencrypted: true, caFile: '/ca.pem' })).toEqual({
      ok: false,
      problem: 'unencryptedWithTls',
    })
    expect(chooseSslMode({ host: 'db.example.net', unencrypted: true, sslmode: 'require' })).toEqual({
      ok: false,
      problem: 'unencryptedWithTls',
    })
    expect(chooseSslMode({ host: 'db.example.net', sslmode: 'require', caFile: '/ca.pem' })).toEqual({
      ok: false,
      problem: 'caFileNeedsVerifyFull',
    })
  })
})
