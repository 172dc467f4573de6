/**
 * A payload a test sends wrong on purpose to a typed boundary (the API client, the portfolio
 * store, a store worker): a name it does not know, a value of another shape, a value that cannot
 * be cloned. Each such boundary validates what it is given at run time, as from an untyped
 * caller, and the test checks that it refuses; the types would not let the call be written, so
 * this is the one place a test states such a value as whatever the boundary takes.
 */
export function rawPayload(value: unknown): never {
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the one deliberate cast of the tests: the value is refused at run time by the boundary under test (see above)
  return value as never
}
