/** Text from the file as a value for a schema to check: text that is not JSON is simply not valid. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
