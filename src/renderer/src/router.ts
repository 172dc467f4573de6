import { createRouter, createWebHashHistory } from 'vue-router'
import { SERVER_REF_PATTERN } from '@shared/service/server-ref'
import { prepareListFormats } from './i18n'
import { nextTask } from './lib/sliced'

/**
 * A long list's screen: its code, and meanwhile, in a task of their own (a message, not a timer: a
 * test's clock holds no message), the formatters its first render and its rows use (made on first
 * use). Intl's set-up was a third of the CPU of the task that mounted the domain list, the window's
 * longest at 100,000 domains (issue 54); before that it fell between the list's arrival and its
 * first paint.
 */
const withListFormats =
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    Promise.all([load(), nextTask().then(prepareListFormats)]).then(([screen]) => screen)

// Hash history: the page is served as app://app/index.html, with no server-side fallback.
export const router = createRouter({
  history: createWebHashHistory(),
  routes: [
    { path: '/', redirect: '/servers/a' },
    { path: '/servers/:kind(a|b|c)', component: () => import('./views/ServersView.vue'), props: true },
    // A server by its name or by its id (old links): the service takes either in its paths.
    {
      path: `/servers/:kind(a|b|c)/:webid(${SERVER_REF_PATTERN})`,
      component: () => import('./views/ServerDetailView.vue'),
      props: true,
    },
    { path: '/svcips', component: () => import('./views/SvcipsView.vue') },
    { path: '/svcips/:vipid(\\d+)', component: () => import('./views/SvcipDetailView.vue'), props: true },
    { path: '/domains', component: withListFormats(() => import('./views/DomainsView.vue')) },
    { path: '/domains/register', component: () => import('./views/RegisterDomainView.vue') },
    { path: '/domains/settings', component: () => import('./views/DomainSettingsView.vue') },
    { path: '/domains/transfer-in', component: () => import('./views/TransferInView.vue') },
    { path: '/domains/:name', component: () => import('./views/DomainDetailView.vue'), props: true },
    { path: '/dns', component: () => import('./views/DnsView.vue') },
    { path: '/dns/:name', component: () => import('./views/DnsZoneView.vue'), props: true },
    { path: '/dns-bulk', component: () => import('./views/BulkDnsView.vue') },
    { path: '/health', component: () => import('./views/HealthView.vue') },
    { path: '/freedns', component: () => import('./views/FreeDnsView.vue') },
    { path: '/freedns/:name', component: () => import('./views/FreeDnsDetailView.vue'), props: true },
    { path: '/search', component: () => import('./views/DomainSearchView.vue') },
    { path: '/expiring', component: () => import('./views/ExpiringView.vue') },
    { path: '/logs', component: () => import('./views/LogsView.vue') },
    { path: '/jobs', component: () => import('./views/JobsView.vue') },
    { path: '/activity', component: () => import('./views/ActivityView.vue') },
    { path: '/accounts', component: () => import('./views/AccountsView.vue') },
    { path: '/:rest(.*)*', redirect: '/servers/a' },
  ],
})

// Move focus to the page heading after navigation, so screen-reader users hear where they are.
router.afterEach(() => {
  setTimeout(() => document.querySelector<HTMLElement>('main h1')?.focus(), 0)
})
