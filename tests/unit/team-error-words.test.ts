/**
 * Words for every cause of a team database failure (issue 50 point 6): each pg or node failure
 * mapped to its own code; every team.* code worded in English and Japanese, its sentence's
 * placeholders filled by the parameters its producers send (none left as `{name}`), and titled by
 * its kind, never "Unexpected error".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openTeamPool } from '../../src/main/team/connection'
import { SCHEMA_VERSION } from '../../src/main/team/schema'
import {
  TEAM_ERROR_CODES,
  TeamError,
  teamErrorKind,
  teamErrorOf,
  type TeamErrorCode,
  type TeamErrorContext,
} from '../../src/main/team/team-error'
import { ledgerErrorData } from '../../src/main/jobs/ledger/ledger-error'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import { isMessageKey, type Catalogue } from '@shared/i18n/catalogue'
import { describeError } from '@shared/i18n/translate'

type Params = Record<string, string | number>

/** A failure as pg or node raises it: a message and a code. */
const failure = (message: string, code?: string, more: Record<string, string> = {}) =>
  Object.assign(new Error(message), code !== undefined ? { code } : {}, more)
const ctx: TeamErrorContext = {
  host: 'db.example.net',
  port: 5432,
  database: 'hosting_admin_team',
  user: 'hosting_admin',
  caFile: '/etc/ssl/team-ca.pem',
}
const noCa: TeamErrorContext = { ...ctx, caFile: undefined }

/** What pg and node raise, with the code and parameters each must become (the connection's names filled from `ctx`). */
const MAPPED: Array<{ err: Error; ctx?: TeamErrorContext; code: TeamErrorCode; params: Params }> = [
  {
    err: failure('password authentication failed for user "hosting_admin"', '28P01'),
    ctx,
    code: 'team.passwordRefused',
    params: { user: 'hosting_admin' },
  },
  {
    err: failure('password authentication failed for user "someone"', '28P01'),
    code: 'team.passwordRefused',
    params: { user: 'someone' },
  },
  { err: failure('role "nobody" does not exist', '28000'), code: 'team.loginRefused', params: { user: 'nobody' } },
  {
    err: failure(
      'no pg_hba.conf entry for host "192.0.2.9", user "hosting_admin", database "hosting_admin_team", no encryption',
      '28000',
    ),
    ctx,
    code: 'team.tlsRequired',
    params: { host: 'db.example.net', user: 'hosting_admin' },
  },
  {
    err: failure(
      'no pg_hba.conf entry for host "192.0.2.9", user "hosting_admin", database "hosting_admin_team", SSL encryption',
      '28000',
    ),
    ctx,
    code: 'team.loginRefused',
    params: { user: 'hosting_admin' },
  },
  { err: failure('invalid authorization', '28001'), code: 'team.refused', params: { reason: '28001' } },
  {
    err: failure('database "hosting_admin_team" does not exist', '3D000'),
    code: 'team.unknownDatabase',
    params: { database: 'hosting_admin_team' },
  },
  {
    err: failure('permission denied for schema public', '42501'),
    code: 'team.noRight',
    params: { right: 'permission denied for schema public' },
  },
  {
    err: failure('must be owner of table team_jobs', '42501'),
    code: 'team.noRight',
    params: { right: 'must be owner of table team_jobs' },
  },
  {
    err: failure('The server does not support SSL connections'),
    ctx,
    code: 'team.tlsUnsupported',
    params: { host: 'db.example.net' },
  },
  {
    err: failure('There was an error establishing an SSL connection'),
    ctx,
    code: 'team.tlsFailed',
    params: { reason: 'handshake' },
  },
  {
    err: failure("Hostname/IP does not match certificate's altnames", 'ERR_TLS_CERT_ALTNAME_INVALID'),
    ctx,
    code: 'team.tlsHostMismatch',
    params: { host: 'db.example.net' },
  },
  {
    err: failure('self-signed certificate in certificate chain', 'SELF_SIGNED_CERT_IN_CHAIN'),
    ctx,
    code: 'team.tlsWrongCa',
    params: { file: '/etc/ssl/team-ca.pem', host: 'db.example.net' },
  },
  {
    err: failure('unable to verify the first certificate', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
    ctx: noCa,
    code: 'team.tlsUntrusted',
    params: { host: 'db.example.net' },
  },
  {
    err: failure('certificate has expired', 'CERT_HAS_EXPIRED'),
    ctx,
    code: 'team.tlsExpired',
    params: { host: 'db.example.net' },
  },
  {
    err: failure('wrong version number', 'ERR_SSL_WRONG_VERSION_NUMBER'),
    ctx,
    code: 'team.tlsFailed',
    params: { reason: 'ERR_SSL_WRONG_VERSION_NUMBER' },
  },
  { err: failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), ctx, code: 'team.unreachable', params: {} },
  { err: failure('connect ETIMEDOUT 192.0.2.9:5432', 'ETIMEDOUT'), ctx, code: 'team.unreachable', params: {} },
  { err: failure('Connection terminated due to connection timeout'), code: 'team.unreachable', params: {} },
  {
    err: failure('terminating connection due to administrator command', '57P01'),
    code: 'team.unreachable',
    params: {},
  },
  { err: failure('Query read timeout'), code: 'team.hung', params: {} },
  { err: failure('division by zero', '22012'), code: 'team.failed', params: { sqlstate: '22012' } },
]

/**
 * The parameters each producer sends, for the codes not made by teamErrorOf: the schema's and the
 * directory's refusals, team mode's and the ledger's own, the connection's (connection.ts).
 */
const PRODUCED_ELSEWHERE: Partial<Record<TeamErrorCode, Params[]>> = {
  'team.unreachable': [{}, { reason: 'closed' }],
  'team.schemaNewer': [{ found: SCHEMA_VERSION + 1, supported: SCHEMA_VERSION }],
  'team.schemaOlder': [{ found: SCHEMA_VERSION - 1, supported: SCHEMA_VERSION, command: 'hosting-admin team migrate' }],
  'team.notInitialised': [{}],
  'team.accountUnreachable': [{}],
  'team.accountUnproven': [{}],
  'team.failed': [{}, { step: 'claim' }, { step: 'migrate' }],
  'team.noPassword': [{ user: 'hosting_admin', passfile: '/home/a/.pgpass' }],
  'team.passfileInsecure': [{ passfile: '/home/a/.pgpass' }],
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{(\w+)/g)].map((m) => m[1] ?? ''))

describe('each pg or node failure has its own code, with the names its sentence gives', () => {
  it.each(MAPPED.map((m) => [m.code, m.err.message, m] as const))('%s ← %s', (_code, _message, m) => {
    const e = teamErrorOf(m.err, m.ctx)
    expect({ code: e.code, params: e.params }).toEqual({ code: m.code, params: m.params })
    expect(e.kind).toBe(teamErrorKind(m.code))
  })

  it('a CA file that cannot be read is said as such before any connection, not as a stack trace', () => {
    let thrown: unknown
    try {
      openTeamPool({
        host: 'db.example.net',
        port: 5432,
        database: 'd',
        user: 'u',
        sslmode: 'verify-full',
        caFile: '/nonexistent/team-ca.pem',
      })
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(TeamError)
    expect(thrown).toMatchObject({
      code: 'team.caFileUnreadable',
      params: { file: '/nonexistent/team-ca.pem', reason: 'ENOENT' },
      kind: 'team-tls',
    })
  })

  it('a code already made is kept, with its parameters', () => {
    const e = new TeamError('team.schemaNewer', { found: 9, supported: 3 })
    expect(teamErrorOf(e, ctx)).toBe(e)
  })
})

describe('every team.* code in words, English and Japanese', () => {
  const producedBy = new Map<TeamErrorCode, Params[]>()
  for (const m of MAPPED) producedBy.set(m.code, [...(producedBy.get(m.code) ?? []), m.params])
  for (const [code, list] of Object.entries(PRODUCED_ELSEWHERE)) {
    const known = TEAM_ERROR_CODES.find((c) => c === code)
    if (known) producedBy.set(known, [...(producedBy.get(known) ?? []), ...list])
  }
  producedBy.set('team.caFileUnreadable', [{ file: '/nonexistent/team-ca.pem', reason: 'ENOENT' }])

  it('every code has a producer in this test (a new code must say what it sends)', () => {
    expect(TEAM_ERROR_CODES.filter((c) => !producedBy.has(c))).toEqual([])
  })

  it.each(TEAM_ERROR_CODES.map((c) => [c]))(
    '%s: both languages, the same placeholders, each filled by what its producers send',
    (code) => {
      for (const catalogue of [en, ja] satisfies Catalogue[]) {
        expect(isMessageKey(code, catalogue), code).toBe(true)
      }
      const enText = isMessageKey(code, en) ? en[code] : ''
      const jaText = isMessageKey(code, ja) ? ja[code] : ''
      expect(placeholders(jaText)).toEqual(placeholders(enText))
      // Five causes read as one sentence before (issue 50): each code its own words.
      for (const other of TEAM_ERROR_CODES)
        if (other !== code && isMessageKey(other, en)) expect(en[other], `${other} reads as ${code}`).not.toBe(enText)
      for (const params of producedBy.get(code) ?? []) {
        for (const [catalogue, locale] of [
          [en, 'en'],
          [ja, 'ja'],
        ] as const) {
          const d = describeError(catalogue, locale, { kind: teamErrorKind(code), code, params })
          expect(d.text, `${locale} ${code} ${JSON.stringify(params)}`).not.toMatch(/[{}]/)
          for (const name of placeholders(enText)) expect(d.text).toContain(String(params[name]))
          // Titled by its kind, never the generic "Unexpected error".
          expect(d.title).not.toBe(catalogue['error.kind.internal'])
          expect(d.title).toBe(catalogue[`error.kind.${teamErrorKind(code)}`])
        }
      }
    },
  )

  it('the database away during a write is titled "Team database unreachable", through the runner’s own path', () => {
    const data = ledgerErrorData(teamErrorOf(failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), ctx))
    expect(data).toEqual({ kind: 'team-unreachable', code: 'team.unreachable', params: {} })
    if (!data) return
    expect(describeError(en, 'en', data).title).toBe('Team database unreachable')
    expect(describeError(ja, 'ja', data).title).toBe('チームのデータベースに接続できません')
  })
})

describe('every TeamError made in the source with a literal code sends the parameters its sentence names', () => {
  const root = resolve(__dirname, '../../src')
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) =>
      statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : [],
    )
  const made = files(root).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/new TeamError\(\s*'([\w.]+)'\s*(?:,\s*\{([^}]*)\})?\s*\)/g)].map((m) => ({
      file: file.slice(root.length + 1),
      code: m[1] ?? '',
      // Shorthand (`{ host }`) and `name: value` keys alike.
      keys: new Set(
        (m[2] ?? '')
          .split(',')
          .map((part) => part.split(':')[0]?.trim() ?? '')
          .filter(Boolean),
      ),
    })),
  )

  it('found them', () => {
    expect(made.length).toBeGreaterThan(10)
  })

  it.each(made.map((m) => [`${m.file} ${m.code}`, m] as const))('%s', (_name, m) => {
    const text = isMessageKey(m.code, en) ? en[m.code] : undefined
    expect(text, m.code).toBeDefined()
    for (const name of placeholders(text ?? '')) expect(m.keys, `${m.file}: ${m.code} without ${name}`).toContain(name)
  })
})
