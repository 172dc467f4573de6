import { useAccountsStore } from '../stores/accounts'
import { accountApi, type AccountApi } from '../lib/data/account-api'

/**
 * The API of the account that is active when the calling view (or store) is created. The
 * account is read once, here: a request sent later goes to this account even if the user has
 * switched since. Views are keyed by account (App.vue), so a switch gives a fresh view.
 */
export function useAccountApi(): AccountApi {
  return accountApi(useAccountsStore().activeId)
}
