/**
 * Which test scans which screen with axe (tests/e2e/axe.ts), once each, where the test has the
 * screen open with its data anyway. Every screen of the router is here: tests/unit/axe-coverage
 * fails for a route no entry names, for an entry whose test does not scan it, and for a screen
 * scanned twice. No imports: the unit test reads this file too.
 */

interface AxeScreenEntry {
  /** The route as router.ts writes it, without the parameters' patterns (`/servers/:kind/:webid`). */
  route: string
  /** The spec file (in tests/e2e) and the title of the test that scans it. */
  spec: string
  test: string
}

const domainDetail = (test: string) => ({ route: '/domains/:name', spec: 'domain-detail.spec.ts', test })
const japanese = (route: string) => ({
  route,
  spec: 'japanese-screens.spec.ts',
  test: 'every screen in Japanese at 1024 x 700: axe at every impact finds nothing',
})
const OVERVIEW_TEST = 'overview, renewal confirmed with the domain, years and new date, and auto-renewal'
const OWNER_TEST = 'owner change and removal are confirmed by typing the domain name'

export const AXE_SCREENS = {
  servers: {
    route: '/servers/:kind',
    spec: 'shell-and-accounts.spec.ts',
    test: 'first run shows the demo account with servers of all three kinds',
  },
  server: {
    route: '/servers/:kind/:webid',
    spec: 'servers-and-svcips.spec.ts',
    test: 'extend a server, after a confirmation that states what will happen; cancel sends nothing',
  },
  svcips: {
    route: '/svcips',
    spec: 'servers-and-svcips.spec.ts',
    test: 'register two svcips at once and see a result per server',
  },
  svcip: {
    route: '/svcips/:vipid',
    spec: 'servers-and-svcips.spec.ts',
    test: 'change svcip settings, extend it, and delete its cache after confirming',
  },
  domains: {
    route: '/domains',
    spec: 'domains-list.spec.ts',
    test: 'reads every domain, filters as you type, sorts, and flags expired and expiring ones',
  },
  'domain register': {
    route: '/domains/register',
    spec: 'domain-register.spec.ts',
    test: 'search many names at once, then register an available one through the wizard',
  },
  'domain settings': {
    route: '/domains/settings',
    spec: 'domain-settings.spec.ts',
    test: 'every account-wide domain list is reachable, read in full and shown',
  },
  'transfer in': {
    route: '/domains/transfer-in',
    spec: 'domain-register.spec.ts',
    test: 'transfer a domain in, and see it in the account’s transfer list',
  },
  // The domain page, every tab.
  'domain tab Overview': domainDetail(OVERVIEW_TEST),
  'domain tab Expiration': domainDetail(OVERVIEW_TEST),
  'domain tab Auto-renewal': domainDetail(OVERVIEW_TEST),
  'domain tab Transfer lock': domainDetail('transfer lock: unlock, and the transfer code only on request'),
  'domain tab WHOIS': domainDetail(
    'WHOIS: validation explains itself; a failed save keeps the input and shows the request ID; then it saves',
  ),
  'domain tab WHOIS with an unsaved edit offered': domainDetail(
    'typed work is kept: nameservers, WHOIS and DNSSEC left unsaved for another screen are offered back, until saved or discarded',
  ),
  'domain tab Nameservers': domainDetail(
    'nameservers: host names are checked, the change is previewed, a concurrent change is caught',
  ),
  'domain tab Private nameservers': domainDetail(
    'private nameservers: create with validation, then delete after confirming',
  ),
  'domain tab Dynamic DNS': domainDetail('dynamic DNS with a generated password, and DNSSEC with digest checks'),
  'domain tab Dynamic DNS, update address': domainDetail(
    'dynamic DNS with a generated password, and DNSSEC with digest checks',
  ),
  'domain tab DNSSEC': domainDetail('dynamic DNS with a generated password, and DNSSEC with digest checks'),
  'domain tab Transfers': domainDetail('transfers: status with the failure reason, and cancel'),
  'domain tab Owner change': domainDetail(OWNER_TEST),
  'domain danger zone': domainDetail(OWNER_TEST),
  'domain tab History': {
    route: '/domains/:name',
    spec: 'history.spec.ts',
    test: 'a change made outside the app is flagged after a refresh, and a saved zone is restored from its snapshot',
  },
  dns: {
    route: '/dns',
    spec: 'history.spec.ts',
    test: 'a change made outside the app is flagged after a refresh, and a saved zone is restored from its snapshot',
  },
  'dns zone': {
    route: '/dns/:name',
    spec: 'dns.spec.ts',
    test: 'edit in the table, see the plan, apply; a line the app does not understand is kept',
  },
  'dns plan panel': {
    route: '/dns/:name',
    spec: 'dns.spec.ts',
    test: 'edit in the table, see the plan, apply; a line the app does not understand is kept',
  },
  'dns plan health': {
    route: '/dns/:name',
    spec: 'dns-health.spec.ts',
    test: 'the plan shows the health findings the save introduces, with why and how to fix; the save is not blocked; in Japanese too',
  },
  health: {
    route: '/health',
    spec: 'dns-health.spec.ts',
    test: 'the Health screen lists the findings of every zone read, filters by rule and severity, and opens the zone with the record in view',
  },
  'dns plan health, Japanese': {
    route: '/dns/:name',
    spec: 'dns-health.spec.ts',
    test: 'the plan shows the health findings the save introduces, with why and how to fix; the save is not blocked; in Japanese too',
  },
  'DNS editor, unsaved changes offered': {
    route: '/dns/:name',
    spec: 'dns.spec.ts',
    test: 'typed work is kept: a save refused for the key is fixed in a dialog over the editor, and an edit left for another screen is offered back',
  },
  'bulk dns plans': {
    route: '/dns-bulk',
    spec: 'bulk-dns.spec.ts',
    test: 'replace an address in zones of two accounts: a plan per zone, a zone over 30 % only when ticked, exactly the planned saves, nothing else changed',
  },
  'bulk dns confirmation': {
    route: '/dns-bulk',
    spec: 'bulk-dns.spec.ts',
    test: 'replace an address in zones of two accounts: a plan per zone, a zone over 30 % only when ticked, exactly the planned saves, nothing else changed',
  },
  'bulk dns results': {
    route: '/dns-bulk',
    spec: 'bulk-dns.spec.ts',
    test: 'replace an address in zones of two accounts: a plan per zone, a zone over 30 % only when ticked, exactly the planned saves, nothing else changed',
  },
  'free dns': {
    route: '/freedns',
    spec: 'freedns.spec.ts',
    test: 'free DNS: register provisionally, change the owner, remove',
  },
  'free dns entry': {
    route: '/freedns/:name',
    spec: 'freedns.spec.ts',
    test: 'free DNS: register provisionally, change the owner, remove',
  },
  search: {
    route: '/search',
    spec: 'domain-register.spec.ts',
    test: 'names are held to the domain-name rule before they are checked or registered',
  },
  'search results': {
    route: '/search',
    spec: 'domain-register.spec.ts',
    test: 'search many names at once, then register an available one through the wizard',
  },
  expiring: {
    route: '/expiring',
    spec: 'expiring.spec.ts',
    test: 'domains, servers and svcips of every account, by date; an unreadable account is reported',
  },
  logs: {
    route: '/logs',
    spec: 'logs.spec.ts',
    test: 'the log lists requests page by page, in either order, filters them, and opens one',
  },
  'log entry': {
    route: '/logs',
    spec: 'logs.spec.ts',
    test: 'the log lists requests page by page, in either order, filters them, and opens one',
  },
  jobs: {
    route: '/jobs',
    spec: 'jobs.spec.ts',
    test: 'a bulk renewal confirmed on one account goes there only, with the confirmed years, while the user switches account and changes the years',
  },
  'job detail': {
    route: '/jobs',
    spec: 'jobs.spec.ts',
    test: 'a reload in the middle of a bulk job changes nothing: it runs on in main and its results are there',
  },
  activity: {
    route: '/activity',
    spec: 'history.spec.ts',
    test: 'a change made outside the app is flagged after a refresh, and a saved zone is restored from its snapshot',
  },
  'domains, after an account switch': {
    route: '/domains',
    spec: 'account-switch.spec.ts',
    test: 'switching account on a domain’s screen: the same domain when that account has it, else that account’s domain list',
  },
  'domains, after an account switch, Japanese': {
    route: '/domains',
    spec: 'account-switch.spec.ts',
    test: 'switching account on a domain’s screen, in Japanese',
  },
  'domains, filtered by nameserver': {
    route: '/domains',
    spec: 'domain-filter.spec.ts',
    test: 'the domain filter matches the name or registrar its placeholder names; nameservers by ns:',
  },
  'domains, filtered by nameserver, Japanese': {
    route: '/domains',
    spec: 'domain-filter.spec.ts',
    test: 'the domain filter names its fields, in Japanese',
  },
  'dns plan with import conflicts': {
    route: '/dns/:name',
    spec: 'dns-import-conflicts.spec.ts',
    test: 'a BIND file that disagrees about names: the plan holds each apart with a choice, reviewable without importing again',
  },
  'dns plan with import conflicts, Japanese': {
    route: '/dns/:name',
    spec: 'dns-import-conflicts.spec.ts',
    test: 'a BIND file that disagrees about names, in Japanese',
  },
  'closing with unsaved edits': {
    route: '/dns/:name',
    spec: 'unsaved-work.spec.ts',
    test: 'closing or reloading the window with an unsaved edit asks first, and Cancel keeps the edit',
  },
  'closing with unsaved edits, Japanese': {
    route: '/dns/:name',
    spec: 'unsaved-work.spec.ts',
    test: 'closing with an unsaved edit asks first, in Japanese',
  },
  accounts: {
    route: '/accounts',
    spec: 'shell-and-accounts.spec.ts',
    test: 'add a second account with its own sandbox and key, switch between accounts, see each account’s data',
  },
  // The Team section of the same screen, with its form filled and tested (issue 37).
  'team section': {
    route: '/accounts',
    spec: 'team.spec.ts',
    test: 'Team section at 1024 x 700: a wrong password in words, test, connect after what is shared, status, disconnect',
  },
  'team section, Japanese': {
    route: '/accounts',
    spec: 'team.spec.ts',
    test: 'Team section in Japanese at 1024 x 700: the same walk, every text in Japanese',
  },
  // Every screen again in Japanese at 1024 x 700, in one walk (japanese-screens.spec.ts).
  'servers, Japanese': japanese('/servers/:kind'),
  'server, Japanese': japanese('/servers/:kind/:webid'),
  'svcips, Japanese': japanese('/svcips'),
  'svcip, Japanese': japanese('/svcips/:vipid'),
  'domains, Japanese': japanese('/domains'),
  'domain page, Japanese': japanese('/domains/:name'),
  'domain register, Japanese': japanese('/domains/register'),
  'domain settings, Japanese': japanese('/domains/settings'),
  'transfer in, Japanese': japanese('/domains/transfer-in'),
  'dns, Japanese': japanese('/dns'),
  'dns zone, Japanese': japanese('/dns/:name'),
  'bulk dns, Japanese': japanese('/dns-bulk'),
  'health, Japanese': japanese('/health'),
  'free dns, Japanese': japanese('/freedns'),
  'free dns entry, Japanese': japanese('/freedns/:name'),
  'search, Japanese': japanese('/search'),
  'expiring, Japanese': japanese('/expiring'),
  'logs, Japanese': japanese('/logs'),
  'jobs, Japanese': japanese('/jobs'),
  'activity, Japanese': japanese('/activity'),
  'accounts, Japanese': japanese('/accounts'),
} as const satisfies Record<string, AxeScreenEntry>

export type AxeScreen = keyof typeof AXE_SCREENS

/** A route without its parameters' patterns: `/servers/:kind(a|b|c)/:webid(${X})` is `/servers/:kind/:webid`. */
export function plainRoute(route: string): string {
  let out = ''
  for (let i = 0; i < route.length; i++) {
    out += route[i]
    if (route[i] !== ':') continue
    while (i + 1 < route.length && /\w/.test(route[i + 1]!)) out += route[++i]
    if (route[i + 1] !== '(') continue
    // Skip the pattern, brackets nested or not.
    let depth = 0
    do {
      i++
      if (route[i] === '(') depth++
      else if (route[i] === ')') depth--
    } while (depth > 0 && i < route.length)
  }
  return out
}

/** Whether an address's path (`/domains/example.com`) is on this route. */
export function onRoute(route: string, path: string): boolean {
  const pattern = plainRoute(route)
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  return new RegExp(`^${pattern}$`).test(path)
}
