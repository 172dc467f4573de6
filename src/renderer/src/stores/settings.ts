import { defineStore } from 'pinia'
import { locale, setLocale } from '../i18n'
import type { Locale } from '../../../shared/messages'

export const useSettingsStore = defineStore('settings', {
  getters: {
    locale: () => locale.value,
  },
  actions: {
    setLocale(l: Locale) {
      setLocale(l)
    },
  },
})
