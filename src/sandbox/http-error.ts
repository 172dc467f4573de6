/**
 * The refusals a handler can give. The core answers them with the error envelope and the
 * status they carry; anything else a handler throws becomes a 500.
 */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Members the service puts in `errors` beside code and message (such as the domain named). */
    readonly extra: Readonly<Record<string, string | number>> = {},
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new SandboxHttpError(400, message)
/**
 * A domain this account does not hold, as the service answers it (recorded: GET
 * /domains/<not ours>/dns gave 400 with errors {"domainid":0,"domainname":...,"code":400,
 * "message":"domainname is invalid."}; dns-lexicon's valuedomain cassettes, 2020).
 */
export const unknownDomain = (domain: string) =>
  new SandboxHttpError(400, 'domainname is invalid.', { domainid: 0, domainname: domain })
export const notFound = (what: string) => new SandboxHttpError(404, `${what} was not found.`)

/** For the checks that return their problem as a message rather than throwing it. */
export function rejectIf(problem: string | undefined): void {
  if (problem) throw badRequest(problem)
}
