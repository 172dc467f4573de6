/**
 * The service's own words in the user's language: every error message recorded from the live
 * service has a meaning in both catalogues, shown beside the words as they came; a message
 * never recorded is shown as it came, with no meaning guessed.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import { describeError, errorLine } from '@shared/i18n/translate'
import { serviceMessageKey } from '@shared/i18n/service-messages'
import { liveFixture } from '../helpers/live-fixtures'

/** Every `errors.message` in a recorded answer, however deep. */
function errorMessages(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) errorMessages(x, out)
  else if (v !== null && typeof v === 'object') {
    const members: [string, unknown][] = Object.entries(v)
    for (const [k, x] of members) {
      if (k === 'errors' && x !== null && typeof x === 'object' && 'message' in x && typeof x.message === 'string')
        out.push(x.message)
      errorMessages(x, out)
    }
  }
  return out
}

const recorded = [
  ...new Set(
    readdirSync(join(__dirname, '../fixtures/live'))
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => errorMessages(JSON.parse(liveFixture(f)))),
  ),
]

describe('the service’s own words', () => {
  it('finds the recorded messages (the walk itself works)', () => {
    expect(recorded).toEqual(
      expect.arrayContaining([
        'domainname is invalid.',
        'The domain is locked against transfer.',
        'Too Many Requests : Too Many Requests.',
      ]),
    )
  })

  it.each(recorded)('knows what "%s" means, in English and in Japanese', (message) => {
    const key = serviceMessageKey(message)
    expect(key).toBeDefined()
    if (!key) return
    expect(en[key]).not.toBe('')
    expect(ja[key]).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/)
  })

  it('says what a message means in the user’s language and keeps the service’s words as they came', () => {
    const error = {
      kind: 'bad-request',
      code: 'error.bad-request',
      serviceMessage: 'The domain is locked against transfer.',
      requestId: 'r1',
    } as const
    const text = describeError(ja, 'ja', error)
    expect(text.serviceMeaning).toBe(ja['serviceMessage.transferLocked'])
    expect(text.serviceMessage).toBe('The domain is locked against transfer.')
    expect(errorLine(text, ja['error.serviceSaid'])).toBe(
      `${text.text} ${ja['serviceMessage.transferLocked']} ${ja['error.serviceSaid']} The domain is locked against transfer.`,
    )
    // Case and spacing aside, it is the same message.
    expect(serviceMessageKey('  DOMAINNAME  is invalid. ')).toBe('serviceMessage.domainnameInvalid')
  })

  it('guesses nothing for a message never recorded: its words only', () => {
    const text = describeError(ja, 'ja', {
      kind: 'bad-request',
      code: 'error.bad-request',
      serviceMessage: 'Something new happened.',
    })
    expect(text.serviceMeaning).toBeUndefined()
    expect(errorLine(text, ja['error.serviceSaid'])).toBe(
      `${text.text} ${ja['error.serviceSaid']} Something new happened.`,
    )
  })
})
