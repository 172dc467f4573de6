import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import StartupFailure from './views/StartupFailure.vue'
import { router } from './router'
import { loadSavedLocale } from './i18n'
import { reportError } from './bridge'
import './styles.css'

// Errors of the page go to the app's log, so "Copy diagnostics" can tell what went wrong.
window.addEventListener('error', (e) => reportError('error', e.error ?? e.message))
window.addEventListener('unhandledrejection', (e) => reportError('rejection', e.reason))

async function start() {
  // The saved language's catalogue first, so the first screen is already in it.
  await loadSavedLocale().catch(() => undefined)
  const startup = await window.api.app.startup({})
  const problem = startup.ok ? startup.value.problem : startup.error
  if (problem) {
    // Main could not start its services: say what and where, in the user's language.
    createApp(StartupFailure, { problem }).mount('#app')
    return
  }
  const app = createApp(App)
  app.config.errorHandler = (err) => reportError('vue', err)
  app.use(createPinia()).use(router).mount('#app')
}

void start()
