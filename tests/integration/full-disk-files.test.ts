/**
 * A disk that fills part-way through a whole-file write (the accounts file, team.json): the write
 * fails, the file that was there stays as it was, and no temporary file is left beside it. The disk
 * is filled for real: the writer runs as its own process under a file-size limit (Node ignores
 * SIGXFSZ, so the kernel's EFBIG reaches the write as ENOSPC would).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

describe('whole-file writes on a full disk', () => {
  it('fail, keep the old file, and leave no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'full-disk-'))
    writeFileSync(join(dir, 'accounts.json'), '{"old":true}')
    writeFileSync(join(dir, 'team.json'), '{"old":true}')
    const child = resolve('tests/helpers/full-disk-child.ts')
    // 8 blocks of 1 KiB: more than the old files, less than either new one.
    const out = execFileSync('bash', ['-c', 'ulimit -f 8; exec node --import tsx "$0" "$1"', child, dir], {
      encoding: 'utf8',
    })
    const results = z
      .object({ accounts: z.string(), team: z.string() })
      .parse(JSON.parse(out.trim().split('\n').at(-1) ?? ''))
    expect(results).toEqual({ accounts: 'EFBIG', team: 'EFBIG' })
    expect(readdirSync(dir).sort()).toEqual(['accounts.json', 'team.json'])
    expect(readFileSync(join(dir, 'accounts.json'), 'utf8')).toBe('{"old":true}')
    expect(readFileSync(join(dir, 'team.json'), 'utf8')).toBe('{"old":true}')
  })
})
