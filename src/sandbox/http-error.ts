/**
 * The refusals a handler can give. The core answers them with the error envelope and the
 * status they carry; anything else a handler throws becomes a 500.
 */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new SandboxHttpError(400, message)
export const notFound = (what: string) => new SandboxHttpError(404, `${what} was not found.`)

/** For the checks that return their problem as a message rather than throwing it. */
export function rejectIf(problem: string | undefined): void {
  if (problem) throw badRequest(problem)
}
