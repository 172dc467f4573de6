import { useAccountsStore } from '../stores/accounts'
import { accountApi, type AccountApi } from '../data/account-api'

/**
 * The API of the account that is active when the calling view (or store) is created. The
 * account is read once, here: a request sent later goes to this account even if the user has
 * switched since. Views are keyed by account (App.vue), so a switch gives a fresh view.
 */
export function useAccountApi(): AccountApi {
  return accountApi(useAccountsStore().activeId)
}

/** The API of any account by its id, for a screen that works across accounts (bulk DNS, expiring). */
export function useAccountApis(): (accountId: string) => AccountApi {
  return accountApi
}
