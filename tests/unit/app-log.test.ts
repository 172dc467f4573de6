/** The app's log file: rotation, the last lines across the rotation, and the redaction of every line. */
import { describe, expect, it } from 'vitest'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAppLog, formatFields } from '../../src/main/base/app-log'
import { Redactor } from '../../src/main/base/redaction'
import { redact } from '../../src/main/http/errors'

describe('the app log', () => {
  it('rotates past its size, and its last lines run across the old file and the new, in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-'))
    const log = createAppLog({ dir, maxSize: 4096 })
    for (let i = 0; i < 300; i++) log.info('test.line', { n: i })
    expect(existsSync(join(dir, 'main.old.log'))).toBe(true)
    const tail = await log.tail(50)
    expect(tail).toHaveLength(50)
    expect(tail.map((l) => Number(/n=(\d+)/.exec(l)?.[1]))).toEqual(Array.from({ length: 50 }, (_, i) => 250 + i))
    expect(readFileSync(join(dir, 'main.log'), 'utf8').length).toBeLessThan(4096 + 200)
  })

  it.skipIf(process.platform === 'win32')(
    'keeps its folder and every file, rotated ones included, readable by the user only, narrowing ones made wider before',
    () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'log-')), 'logs')
      mkdirSync(dir, { mode: 0o755 })
      writeFileSync(join(dir, 'main.log'), '', { mode: 0o644 })
      chmodSync(dir, 0o755)
      chmodSync(join(dir, 'main.log'), 0o644)
      const log = createAppLog({ dir, maxSize: 4096 })
      const modeOf = (p: string) => statSync(p).mode & 0o777
      expect(modeOf(dir)).toBe(0o700)
      expect(modeOf(log.file)).toBe(0o600)
      for (let i = 0; i < 300; i++) log.info('test.line', { n: i })
      expect(existsSync(join(dir, 'main.old.log'))).toBe(true)
      expect(modeOf(join(dir, 'main.old.log'))).toBe(0o600)
      expect(modeOf(log.file)).toBe(0o600)
    },
  )

  it('redacts keys it was told of, URL credentials and bearer tokens; a line stays one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-'))
    const redactor = new Redactor()
    const log = createAppLog({ dir, redactor })
    redactor.add('  key-abcdef-123456  ')
    log.warn('test.leak', {
      text: 'key-abcdef-123456 https://u:pw@host.example/v1 Authorization: Bearer tok-999\nsecond line',
    })
    const text = readFileSync(log.file, 'utf8')
    expect(text).not.toMatch(/key-abcdef-123456|pw@|tok-999/)
    expect(text).toContain('https://[redacted]@host.example/v1')
    expect(text).toContain('Bearer [redacted]')
    expect(text.trim().split('\n')).toHaveLength(1)
  })

  it('redacts a key a service or proxy echoed URL-encoded, in the log and in the client’s texts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-'))
    const redactor = new Redactor()
    const log = createAppLog({ dir, redactor })
    const key = 'sk/live+abc=def ghi123'
    redactor.add(key)
    log.warn('test.echo', {
      url: `https://api.example.com/v1/x?key=${encodeURIComponent(key)}`,
      form: `key=${encodeURIComponent(key).replace(/%20/g, '+')}`,
    })
    const text = readFileSync(log.file, 'utf8')
    expect(text).not.toContain(encodeURIComponent(key))
    expect(text).not.toContain(encodeURIComponent(key).replace(/%20/g, '+'))
    expect(redact(`echoed ${encodeURIComponent(key)} and ${key}`, key)).toBe('echoed [redacted] and [redacted]')
  })

  it('redacts a key echoed percent-encoded in lower-case hex (%2b%2f), in the log and in the client’s texts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-'))
    const redactor = new Redactor()
    const log = createAppLog({ dir, redactor })
    const key = 'Sk+live/AbC=dEf+0123'
    redactor.add(key)
    const lower = encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())
    expect(lower).toContain('%2b')
    log.warn('test.echo', {
      url: `https://api.example.com/v1/x?key=${lower}`,
      folded: encodeURIComponent(key).toLowerCase(),
    })
    const text = readFileSync(log.file, 'utf8')
    expect(text.toLowerCase()).not.toContain(lower.toLowerCase())
    expect(text).toContain('key=[redacted]')
    expect(redact(`echoed ${lower}.`, key)).toBe('echoed [redacted].')
  })

  it('writes fields so a line parses back: values with spaces are quoted, missing ones left out', () => {
    expect(formatFields({ a: 'x', b: 'two words', c: undefined, d: 3, e: '' })).toBe('a=x b="two words" d=3 e=""')
  })
})
