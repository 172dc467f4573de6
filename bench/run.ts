/** npm run bench: every benchmark, printed side by side with its targets. */
import { benchBundleSize } from './bundle-size'
import { benchListAll } from './list-all'
import { benchPortfolioStore } from './portfolio-store'
import { benchPortfolioRefresh } from './portfolio-refresh'
import { benchPortfolioPaint } from './portfolio-paint'
import { benchListAllRateLimited } from './list-all-rate-limited'
import { benchDomainList } from './domain-list'
import { benchDnsModel } from './dns-model'
import { benchDnsEditor } from './dns-editor'
import { benchDrift } from './drift'
import { benchStartup } from './startup'
import { benchMainThread } from './main-thread'
import { benchStoreTime } from './store-time'
import { benchTenAccounts } from './ten-accounts'
import { benchTenAccountsRefresh } from './ten-accounts-refresh'
import { benchHealth } from './health'
import type { BenchResult } from './report'

const benches: [string, () => Promise<BenchResult>][] = [
  ['bundle-size', benchBundleSize],
  ['list-all', benchListAll],
  ['list-all-rate-limited', benchListAllRateLimited],
  ['domain-list', benchDomainList],
  ['dns-model', benchDnsModel],
  ['dns-editor', benchDnsEditor],
  ['portfolio-store', benchPortfolioStore],
  ['store-time', benchStoreTime],
  ['portfolio-refresh', benchPortfolioRefresh],
  ['portfolio-paint', benchPortfolioPaint],
  ['drift', benchDrift],
  ['startup', benchStartup],
  ['main-thread', benchMainThread],
  ['ten-accounts', benchTenAccounts],
  ['ten-accounts-refresh', benchTenAccountsRefresh],
  ['health', benchHealth],
]
const only = process.argv[2]

for (const [id, run] of benches) {
  if (only && only !== id) continue
  const r = await run()
  console.log(`\n== ${r.name}`)
  for (const line of r.lines) console.log(`   ${line}`)
  console.log(`   targets ${r.ok ? 'met' : 'NOT met'} in this run`)
}
