/**
 * What the service says in its own words (an error's `message`), where the app knows what it
 * means: each entry is a message recorded from the live service (tests/fixtures/live, where a
 * test holds this table to every recorded message). The service's words are English in every
 * language; the meaning is the catalogue's, in the user's. A message not listed is shown as it
 * came, with nothing guessed.
 */
import type { MessageKey } from './catalogue'

const MEANINGS: Readonly<Record<string, MessageKey>> = {
  'domainname is invalid.': 'serviceMessage.domainnameInvalid',
  'the domain is locked against transfer.': 'serviceMessage.transferLocked',
  'too many requests : too many requests.': 'serviceMessage.tooManyRequests',
}

/** The catalogue key of what a service message means, if the app knows it (case and spacing aside). */
export function serviceMessageKey(message: string): MessageKey | undefined {
  const key = message.trim().replace(/\s+/g, ' ').toLowerCase()
  return Object.prototype.hasOwnProperty.call(MEANINGS, key) ? MEANINGS[key] : undefined
}
