import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import StartupFailure from './views/StartupFailure.vue'
import { loadRouteLocation } from 'vue-router'
import { router } from './router'
import { screenChanged, screenChanging } from './lib/notify'
import { t } from './i18n'
import { loadSavedLocale, setLocale } from './i18n/page-locale'
import { invoke, reportError } from './data/bridge'
import { useAccountsStore } from './stores/accounts'
import { startupWarnings } from './lib/data/startup-warnings'
import { keepPressedButtonsSteady } from './composables/steady-press'
import './styles.css'

// Errors of the page go to the app's log, so "Copy diagnostics" can tell what went wrong.
window.addEventListener('error', (e) => reportError('error', e.error ?? e.message))
window.addEventListener('unhandledrejection', (e) => reportError('rejection', e.reason))
keepPressedButtonsSteady(document)

async function start() {
  // Instant start: the catalogue, main's start-up state and the accounts are asked for at once,
  // not one after another, so the first screen can ask the portfolio store for its list sooner.
  const pinia = createPinia()
  const accountsLoaded = useAccountsStore(pinia).load()
  // The screen the window opens on is fetched meanwhile, not once the window is mounted.
  void loadRouteLocation(router.resolve(window.location.hash.slice(1) || '/')).catch(() => undefined)
  const localeLoaded = loadSavedLocale().catch(() => setLocale('en'))
  // While main opens the store, the boot frame says so, in the user's language, as soon as it can.
  void localeLoaded.then(() => {
    const word = document.getElementById('boot-word')
    if (word) word.textContent = t('app.opening')
  })
  const [, startup] = await Promise.all([localeLoaded, invoke('app.startup', {})])
  const problem = startup.ok ? startup.value.problem : startup.error
  if (problem) {
    // Main could not start its services: say what and where, in the user's language.
    createApp(StartupFailure, { problem }).mount('#app')
    return
  }
  startupWarnings.value = startup.ok ? (startup.value.warnings ?? []) : []
  const app = createApp(App)
  app.config.errorHandler = (err) => reportError('vue', err)
  router.beforeEach(() => screenChanging())
  router.afterEach((to, from) => screenChanged(to.path, from.path))
  app.use(pinia).use(router).mount('#app')
  await accountsLoaded
}

// In a task of its own: the module graph's evaluation and the start's own work (a dozen dynamic imports of the first
// screen, the first calls to main) were one task of 40 to 60 ms of CPU on a two-core machine, and more by the clock.
setTimeout(() => void start(), 0)
