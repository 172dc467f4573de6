/** Reminders as the user reads them, in English and in Japanese, from the catalogues themselves. */
import { describe, expect, it } from 'vitest'
import { moreRemindersText, reminderText, type ReminderWords } from '../../src/renderer/src/lib/text/reminder-text'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import type { Catalogue, Locale } from '@shared/i18n/catalogue'
import { translate } from '@shared/i18n/translate'
import type { DueReminder, ExpiringItem } from '@shared/portfolio/reminders'

const wordsIn = (catalogue: Catalogue, locale: Locale): ReminderWords => ({
  t: (key, params) => translate(catalogue, locale, key, params),
  formatDate: (d) => d,
  accountName: (id) => ({ main: 'Main' })[id] ?? id,
  kindLabel: () => 'Web',
})
const item = (extra: Partial<ExpiringItem> = {}): ExpiringItem => ({
  accountId: 'main',
  kind: 'domain',
  id: 'a.example',
  label: 'a.example',
  expires: '2030-01-06',
  autorenew: false,
  ...extra,
})
const due = (daysLeft: number, extra: Partial<ExpiringItem> = {}): DueReminder => ({
  item: item(extra),
  threshold: 7,
  daysLeft,
})

describe('reminder texts', () => {
  it('in English: days left, today, what the item is, whose, and auto-renewal when it is on', () => {
    const w = wordsIn(en, 'en')
    expect(reminderText(w, due(5))).toEqual({
      title: 'a.example expires in 5 days',
      body: 'Domain of the account “Main”, expiring on 2030-01-06.',
    })
    expect(reminderText(w, due(1)).title).toBe('a.example expires in 1 day')
    expect(reminderText(w, due(0)).title).toBe('a.example expires today')
    expect(reminderText(w, due(3, { kind: 'server', serverKind: 'a', label: 'web77', autorenew: true })).body).toBe(
      'Server (Web) of the account “Main”, expiring on 2030-01-06. Auto-renewal is on.',
    )
    expect(reminderText(w, due(3, { kind: 'svcip', label: 'vip5', accountId: 'gone' })).body).toBe(
      'Service IP of the account “gone”, expiring on 2030-01-06.',
    )
    expect(moreRemindersText(w, 12)).toEqual({
      title: '12 more items expire soon',
      body: 'Open “Expiring soon” to see every one of them.',
    })
  })

  it('in Japanese', () => {
    const w = wordsIn(ja, 'ja')
    expect(reminderText(w, due(5))).toEqual({
      title: 'a.example はあと 5 日で有効期限です',
      body: 'アカウント「Main」のドメイン、有効期限 2030-01-06。',
    })
    expect(reminderText(w, due(0)).title).toBe('a.example は今日が有効期限です')
    expect(moreRemindersText(w, 12).title).toBe('ほかに 12 件がまもなく有効期限です')
  })
})
