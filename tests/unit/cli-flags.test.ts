/** The command line's flag reading: a DNS-01 value that begins with '-' is an argument, not a flag. */
import { describe, expect, it } from 'vitest'
import { COMMON_FLAGS, readFlags } from '../../src/cli/flags'
import { commandOf } from '../../src/cli/commands'

describe('readFlags', () => {
  // A real shape: 43 characters of base64url, here beginning with '-' (1 value in 64 does).
  const value = '-Wf3sQh0m2cXbq9kTgE7rYpL1aZ8nV4uJ6dO5iC-_xS'

  it('keeps a validation value that begins with a dash as lego passes it (present <fqdn> <value>)', () => {
    expect(value).toHaveLength(43)
    const command = commandOf(['acme', 'present'])
    if (!command) throw new Error('no acme present command')
    const read = readFlags(
      ['acme', 'present', '_acme-challenge.example.com.', value, '--account', 'Shop'],
      [...COMMON_FLAGS, ...command.command.flags],
    )
    expect(read).toMatchObject({ ok: true, positionals: ['acme', 'present', '_acme-challenge.example.com.', value] })
    if (read.ok) expect(read.flags.text('account')).toBe('Shop')
  })

  it('still refuses a flag the command does not take, and reads one it does', () => {
    expect(
      readFlags(['dns', 'export', 'example.com', '--every', '5m'], [...COMMON_FLAGS, 'format', 'bind']),
    ).toMatchObject({ ok: false })
    expect(
      readFlags(['acme', 'present', 'x.example.com', 'v', '--timeout', '5s'], [...COMMON_FLAGS, 'timeout']),
    ).toMatchObject({ ok: true })
  })
})
