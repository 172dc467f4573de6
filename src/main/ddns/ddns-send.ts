/**
 * The command line's `ddns.send` in the app's services: the domain's update address and password
 * read through the API here (never from the command), the update sent, and recorded in the
 * history as the service answered it.
 */
import type { ParsedPayloadOf } from '@shared/ipc/contract'
import type { DdnsSent } from '@shared/service/ddns'
import type { AccountService } from '../accounts/account-service'
import { AppError } from '../base/app-error'
import { recordDdnsUpdate } from '../store/ddns-history'
import type { PortfolioStoreAsync } from '../store/store-async'
import { ddnsTargetFrom, sendDdnsUpdate } from './ddns-update'

export async function sendAccountDdns(
  accounts: Pick<AccountService, 'list' | 'client'>,
  store: PortfolioStoreAsync | undefined,
  p: ParsedPayloadOf<'ddns.send'>,
): Promise<DdnsSent> {
  const account = (await accounts.list()).accounts.find((a) => a.id === p.accountId)
  if (!account) throw AppError.of('validation', { code: 'account.notFound' })
  const settings = await (await accounts.client(p.accountId)).call('domains.dynamicdns.get', { domain: p.domain })
  const target = ddnsTargetFrom(account, p.domain, settings)
  if (!target) throw AppError.of('validation', { code: 'cli.ddns.off', params: { domain: p.domain } })
  const sent = await sendDdnsUpdate(target, p.host, p.ip)
  const record = { accountId: p.accountId, domain: target.domain, host: p.host ?? '@', ip: p.ip, ok: sent.ok }
  if (store) await recordDdnsUpdate(store, record)
  return sent
}
