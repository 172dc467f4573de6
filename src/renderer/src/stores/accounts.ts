/** The accounts and which one is active: the one piece of state every screen shares. */
import { defineStore } from 'pinia'
import { invoke, type ErrorData } from '../data/bridge'
import { useListsStore } from './lists'
import type { AccountView, ProfileFields } from '@shared/accounts'

interface AccountsState {
  accounts: AccountView[]
  activeId: string
  problem: ErrorData | undefined
  loading: boolean
  error: ErrorData | undefined
  keychain: { available: boolean; problem?: ErrorData | undefined } | undefined
}

export const useAccountsStore = defineStore('accounts', {
  state: (): AccountsState => ({
    accounts: [],
    activeId: '',
    problem: undefined,
    loading: false,
    error: undefined,
    keychain: undefined,
  }),
  getters: {
    active: (s): AccountView | undefined => s.accounts.find((a) => a.id === s.activeId),
    byId:
      (s) =>
      (id: string): AccountView | undefined =>
        s.accounts.find((a) => a.id === id),
  },
  actions: {
    async load() {
      this.loading = true
      const r = await invoke('accounts.list', {})
      this.loading = false
      if (!r.ok) {
        this.error = r.error
        return
      }
      this.error = undefined
      this.accounts = r.value.accounts
      this.activeId = r.value.activeId
      this.problem = r.value.problem
    },
    async checkKeychain() {
      const r = await invoke('accounts.keychainStatus', {})
      if (r.ok) this.keychain = r.value
    },
    async setActive(id: string) {
      const r = await invoke('accounts.setActive', { id })
      if (r.ok) this.activeId = id
      return r
    },
    async create(fields: ProfileFields, apiKey: string, storage: 'keychain' | 'session') {
      const r = await invoke('accounts.create', { fields, apiKey, storage })
      if (r.ok) await this.load()
      return r
    },
    /** `typedName`: the name as the user typed it, when the edit guards the account's writes less (main checks it). */
    async update(id: string, fields: ProfileFields, typedName?: string) {
      const r = await invoke('accounts.update', { id, fields, ...(typedName !== undefined ? { typedName } : {}) })
      if (r.ok) await this.load()
      return r
    },
    async replaceKey(id: string, apiKey: string, storage: 'keychain' | 'session') {
      const r = await invoke('accounts.replaceKey', { id, apiKey, storage })
      if (r.ok) await this.load()
      return r
    },
    async remove(id: string) {
      const r = await invoke('accounts.remove', { id })
      if (r.ok) {
        useListsStore().forgetAccount(id)
        await this.load()
      }
      return r
    },
    testConnection(id: string) {
      return invoke('accounts.testConnection', { id })
    },
  },
})
