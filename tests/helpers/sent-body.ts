/**
 * What a request the sandbox recorded carried, read with a schema of the members a test looks
 * at: the recorder keeps the body as unknown JSON, and a body of another shape fails the test
 * here, saying which member differs.
 */
import type { z } from 'zod'

export function sentBody<T>(request: { body: unknown } | undefined, schema: z.ZodType<T>): T {
  if (request === undefined) throw new Error('no such request was received')
  return schema.parse(request.body)
}
