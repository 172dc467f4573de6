/**
 * Schema validation results as field issues with codes: the one translation from what the
 * schema library reports to what the renderer's catalogue can say in the user's language.
 * A schema may name its own code as the message of a check (`.regex(re, 'field.number')`);
 * every other failure is named here by what went wrong.
 */
import type { z } from 'zod'
import type { Issue } from './index'

export const FIELD_CODES = [
  'field.required',
  'field.wrongType',
  'field.tooShort',
  'field.tooLong',
  'field.tooSmall',
  'field.tooBig',
  'field.tooFew',
  'field.tooMany',
  'field.badFormat',
  'field.notAllowed',
  'field.unknownKeys',
  'field.invalid',
  'field.number',
  'field.hex',
  'field.accountId',
  'field.jobId',
  'field.callId',
  'field.listName',
  'field.pathWord',
  'field.hostName',
  'field.transferOrderId',
  'field.requestId',
  'field.pathSegment',
  'field.nsType',
  'field.serverRef',
  'field.apiKeyChars',
  'field.domainIdUnknown',
] as const
export type FieldCode = (typeof FIELD_CODES)[number]

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: Issue[] }

/** A message that is a code of ours (dotted words), not the schema library's English default. */
const OWN_CODE = /^[a-z][a-zA-Z]*(\.[a-zA-Z-]+)+$/

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined
    v = Reflect.get(v, key)
  }
  return v
}

function issueOf(i: z.core.$ZodIssue, input: unknown): Issue {
  const path = i.path.map(String).join('.')
  if (OWN_CODE.test(i.message)) return { path, code: i.message }
  switch (i.code) {
    case 'invalid_type':
      return valueAt(input, i.path) === undefined
        ? { path, code: 'field.required' }
        : { path, code: 'field.wrongType', params: { expected: i.expected } }
    case 'too_small': {
      const min = Number(i.minimum)
      if (i.origin === 'string')
        return min <= 1 ? { path, code: 'field.required' } : { path, code: 'field.tooShort', params: { min } }
      if (i.origin === 'array' || i.origin === 'set') return { path, code: 'field.tooFew', params: { min } }
      return { path, code: 'field.tooSmall', params: { min } }
    }
    case 'too_big': {
      const max = Number(i.maximum)
      if (i.origin === 'string') return { path, code: 'field.tooLong', params: { max } }
      if (i.origin === 'array' || i.origin === 'set') return { path, code: 'field.tooMany', params: { max } }
      return { path, code: 'field.tooBig', params: { max } }
    }
    case 'invalid_format':
      return { path, code: 'field.badFormat' }
    case 'invalid_value':
      return { path, code: 'field.notAllowed', params: { values: i.values.map(String).join(', ') } }
    case 'unrecognized_keys':
      return { path, code: 'field.unknownKeys', params: { keys: i.keys.join(', ') } }
    default:
      return { path, code: 'field.invalid' }
  }
}

/** Validates once; on failure, at most 20 issues, each with a code. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown): Parsed<T> {
  const r = schema.safeParse(input)
  if (r.success) return { ok: true, value: r.data }
  return { ok: false, issues: r.error.issues.slice(0, 20).map((i) => issueOf(i, input)) }
}
