import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { router } from './router'
import { loadSavedLocale } from './i18n'
import './styles.css'

// The saved language's catalogue first, so the first screen is already in it.
void loadSavedLocale().finally(() => createApp(App).use(createPinia()).use(router).mount('#app'))
