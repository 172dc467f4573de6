/**
 * The window's one time format (issue 53 point 10): a time the service wrote with no zone, a
 * time this app kept (ISO, with its zone) and a team refusal's time all read alike, local, in
 * English and Japanese; times of a list a minute apart get their seconds.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { distinctTimes, errorText, formatDateTime } from '../../src/renderer/src/i18n'
import { useCatalogue } from '../../src/renderer/src/i18n/current'
import { heldError } from '../../src/main/jobs/held-by'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'

/** An ISO time (UTC) whose local wall clock is the given one, whatever the machine's time zone. */
const localIso = (y: number, mo: number, d: number, h: number, mi: number, s = 0) =>
  new Date(y, mo - 1, d, h, mi, s).toISOString()

afterEach(() => useCatalogue('en', en))

describe.each([
  ['en', en],
  ['ja', ja],
] as const)('times in %s', (lang, catalogue) => {
  it('a service time reads as a kept time of the same wall clock, not as the service wrote it', () => {
    useCatalogue(lang, catalogue)
    const shown = formatDateTime('2026-11-28 10:10:00')
    expect(shown).toBe(formatDateTime(localIso(2026, 11, 28, 10, 10)))
    expect(shown).not.toContain('2026-11-28')
    expect(shown).toContain('10:10')
    expect(formatDateTime('2026-11-28')).not.toContain('00:00')
  })

  it('a team refusal names its time in the local format, without "UTC"', () => {
    useCatalogue(lang, catalogue)
    const since = localIso(2026, 11, 29, 7, 5)
    const refused = heldError({ state: 'sending', since, member: 'alice', workstation: 'ws-a' }, 'a.example')
    // The words the command line shows stay in its own convention.
    expect(refused.params?.since).toMatch(/ UTC$/)
    const text = errorText(refused).text
    expect(text).toContain(formatDateTime(since))
    expect(text).not.toContain('UTC')
  })

  it('times a minute apart keep hour and minute; the same minute gets its seconds', () => {
    useCatalogue(lang, catalogue)
    const [a, b, c] = [
      localIso(2026, 11, 29, 9, 41, 5),
      localIso(2026, 11, 29, 9, 41, 50),
      localIso(2026, 11, 29, 9, 43),
    ]
    const shown = distinctTimes([a, b, c])
    expect(shown[0]).not.toBe(shown[1])
    expect(shown[0]).toContain('9:41:05')
    expect(shown[1]).toContain('9:41:50')
    expect(shown[2]).toBe(formatDateTime(c))
    expect(shown[2]).not.toContain(':00')
  })

  it('times in the same second get their thousandths; the same time reads the same', () => {
    useCatalogue(lang, catalogue)
    const a = new Date(2026, 10, 29, 9, 41, 5, 120).toISOString()
    const b = new Date(2026, 10, 29, 9, 41, 5, 870).toISOString()
    const shown = distinctTimes([a, b, a])
    expect(shown[0]).toContain('9:41:05.120')
    expect(shown[1]).toContain('9:41:05.870')
    expect(shown[2]).toBe(shown[0])
    expect(distinctTimes([a, a])).toEqual([formatDateTime(a), formatDateTime(a)])
  })
})
