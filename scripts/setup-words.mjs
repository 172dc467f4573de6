// The setup scripts' words in the user's language, as the command line chooses it (LC_ALL,
// LC_MESSAGES or LANG starting with "ja" is Japanese, else English), from the app's catalogue
// (its `setup.*` texts, copied to setup-words.json by setup-words-write.ts: these scripts run
// with plain Node.js before anything is installed). A placeholder is written {name}.
import { readFileSync } from 'node:fs'

const words = JSON.parse(readFileSync(new URL('./setup-words.json', import.meta.url), 'utf8'))

export function say(key, params = {}, env = process.env) {
  const tag = env.LC_ALL || env.LC_MESSAGES || env.LANG || ''
  const text = words[/^ja/i.test(tag) ? 'ja' : 'en'][key] ?? words.en[key] ?? key
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole))
}
