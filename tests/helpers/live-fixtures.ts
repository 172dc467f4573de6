/** The recorded exchanges of tests/fixtures/live, read and checked (see its README). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

const json: z.ZodType<unknown> = z.unknown()
const exchangeSchema = z.object({
  request: z.object({
    method: z.enum(['GET', 'PUT', 'POST', 'DELETE']),
    path: z.string().startsWith('/v1/'),
    body: z.record(z.string(), json).optional(),
  }),
  response: z.object({ status: z.number().int(), body: z.record(z.string(), json) }),
})
export type Exchange = z.infer<typeof exchangeSchema>
const recordingSchema = z.object({
  source: z.string().min(10),
  changed: z.string(),
  shows: z.string(),
  exchanges: z.array(exchangeSchema).min(1),
})
export type Recording = z.infer<typeof recordingSchema>

const DIR = join(__dirname, '../fixtures/live')

/** A file of tests/fixtures/live as text (a single answer). */
export const liveFixture = (name: string): string => readFileSync(join(DIR, name), 'utf8')

/** A recording of exchanges, checked to carry its source. */
export function recording(name: string): Recording {
  return recordingSchema.parse(JSON.parse(liveFixture(name)))
}

/** One recorded answer's body as the text the service sent. */
export const answerText = (name: string, index: number): string =>
  JSON.stringify(recording(name).exchanges[index]?.response.body)

/** The members and JSON types of a value, recursively (values left out): what "the same shape" compares. */
export function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? '[]' : [shapeOf(v[0])]
  if (v === null) return 'null'
  if (typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shapeOf(Reflect.get(v, k))]),
    )
  return typeof v
}

const rateLimitSchema = z.object({
  source: z.string().min(10),
  requestsBeforeFirst429: z.number().int(),
  secondsBeforeFirst429: z.number(),
  triesAfterFirst429: z.array(z.object({ atSeconds: z.number(), status: z.number().int() })).min(1),
  '429': z.object({ headers: z.record(z.string(), z.string()), body: z.record(z.string(), json) }),
})

/** The recorded timeline of the rate limit (rate-limit-burst.json). */
export const rateLimitRecording = () => rateLimitSchema.parse(JSON.parse(liveFixture('rate-limit-burst.json')))
