import { defineStore } from 'pinia'
import { locale, type Locale } from '../i18n'
import { setLocale } from '../i18n/page-locale'
import { ATTENTION_DAY_CHOICES, DEFAULT_ATTENTION_DAYS, type AttentionDays } from '../lib/data/expiry'

const ATTENTION_KEY = 'hosting-admin.attentionDays'

function savedAttentionDays(): AttentionDays {
  const n = Number(localStorage.getItem(ATTENTION_KEY))
  return ATTENTION_DAY_CHOICES.find((c) => c === n) ?? DEFAULT_ATTENTION_DAYS
}

export const useSettingsStore = defineStore('settings', {
  state: () => ({
    /** How near an expiration date needs attention: one setting for the domain list and "Expiring soon". */
    attentionDays: savedAttentionDays(),
  }),
  getters: {
    locale: () => locale.value,
  },
  actions: {
    setLocale(l: Locale) {
      return setLocale(l)
    },
    setAttentionDays(days: number) {
      const choice = ATTENTION_DAY_CHOICES.find((c) => c === days)
      if (!choice) return
      this.attentionDays = choice
      localStorage.setItem(ATTENTION_KEY, String(choice))
    },
  },
})
