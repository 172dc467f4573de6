import { defineStore } from 'pinia'
import { locale, setLocale, type Locale } from '../i18n'

export const useSettingsStore = defineStore('settings', {
  getters: {
    locale: () => locale.value,
  },
  actions: {
    setLocale(l: Locale) {
      return setLocale(l)
    },
  },
})
