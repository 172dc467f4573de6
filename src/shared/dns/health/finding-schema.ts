/**
 * A health finding as data read back (history keeps the findings that appeared or went away):
 * checked once where it is read, as everything that crosses a boundary is.
 */
import { z } from 'zod'
import { HEALTH_RULES, type HealthFinding } from './rules'
import type { ServedFinding } from './served'

const healthFindingSchema = z.object({
  rule: z.enum(HEALTH_RULES),
  severity: z.enum(['error', 'warning', 'info']),
  record: z.object({ type: z.string(), host: z.string(), value: z.string() }),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  introduced: z.boolean().optional(),
}) satisfies z.ZodType<HealthFinding>

/** A health history entry's value: the findings it names (before: the ones that went away; after: the ones that appeared). */
export const healthChangeSchema = z.object({ findings: z.array(healthFindingSchema) })

export const servedFindingSchema = z.object({
  code: z.enum([
    'served.delegatedElsewhere',
    'served.unresolved',
    'served.unreachable',
    'served.missing',
    'served.extra',
    'served.rewritten',
  ]),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
}) satisfies z.ZodType<ServedFinding>

/** A served history entry's value: every served-against-saved finding at that comparison (before: at the one before it). */
export const servedChangeSchema = z.object({ findings: z.array(servedFindingSchema) })
