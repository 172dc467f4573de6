/** The zone archive: a tar that reads back to the same files (checked with the system's tar). */
import { describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tarArchive } from '../../src/renderer/src/lib/data/tar'

describe('tar archive of zone files', () => {
  it('reads back with tar: every file, its path and its text, long paths included', () => {
    const long = `${'a'.repeat(60)}/${'sub'.repeat(20)}/example.com.zone`
    const files = [
      { path: 'Main/example.com.zone', text: '$ORIGIN example.com.\n@ 3600 IN A 192.0.2.10\n' },
      { path: 'Reseller/freedns/日本.jp.zone', text: 'www 3600 IN CNAME @\n' },
      { path: long, text: 'x'.repeat(1500) },
    ]
    const dir = mkdtempSync(join(tmpdir(), 'tar-'))
    writeFileSync(join(dir, 'zones.tar'), tarArchive(files))
    expect(
      execFileSync('tar', ['-tf', join(dir, 'zones.tar')], { encoding: 'utf8' })
        .trim()
        .split('\n'),
    ).toEqual(files.map((f) => f.path))
    execFileSync('tar', ['-xf', join(dir, 'zones.tar'), '-C', dir])
    for (const f of files) expect(readFileSync(join(dir, f.path), 'utf8')).toBe(f.text)
  })
})
