import { createRouter, createWebHashHistory } from 'vue-router'
import { SERVER_REF_PATTERN } from '@shared/service/server-ref'

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
    { path: '/domains', component: () => import('./views/DomainsView.vue') },
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
