/**
 * The messages of the app's door for the command line (src/main/door/cli-server.ts serves it,
 * src/cli/app-door.ts calls it), one schema for both directions so that the two ends cannot
 * drift: each end validates what it receives with it and writes only what its types allow.
 * One JSON message per line. What a call carries and answers is the contract's (contract.ts):
 * the door only moves it.
 */
import { z } from 'zod'

/** The command's origin, as the router checks senders: only the door and the command's own services make senders of it. */
export const CLI_ORIGIN = 'cli://hosting-admin'

/** What the command sends: first its token, then calls of the contract. */
export const toAppSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), token: z.string().max(200) }),
  z.object({
    t: z.literal('call'),
    id: z.number().int().nonnegative(),
    channel: z.string().max(100),
    payload: z.unknown(),
  }),
])
export type ToApp = z.infer<typeof toAppSchema>

/**
 * What the app sends: its welcome, each call's Result (by the call's id), the jobs the command
 * watches and the progress of its reads. A Result, a job and a progress are the contract's types,
 * checked by the command where it reads them (app-door.ts).
 */
export const fromAppSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('welcome') }),
  z.object({ t: z.literal('result'), id: z.number().int().nonnegative(), result: z.unknown() }),
  z.object({ t: z.literal('job'), job: z.unknown() }),
  z.object({ t: z.literal('progress'), p: z.unknown() }),
])
export type FromApp = z.infer<typeof fromAppSchema>

/** One message as it crosses: a line of JSON. */
export const doorLine = (message: ToApp | FromApp): string => `${JSON.stringify(message)}\n`
