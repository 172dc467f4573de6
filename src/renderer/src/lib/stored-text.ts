/**
 * Findings about what the service stored (src/shared/stored.ts) in the user's words: field
 * names get their labels, 0 / 1 flags read On / Off. The words come in as a parameter (the
 * app passes its reactive `t` / `tCode`), so a test can read exactly what a user reads
 * without a browser.
 */
import { CONTACT_FIELDS, CONTACT_ROLES } from '../../../shared/constants'
import type { StoredFinding } from '../../../shared/stored'
import type { MessageKey } from '../i18n/catalogue'
import type { Params } from '../i18n/format'

export interface Words {
  t(key: MessageKey, params?: Params): string
  tCode(code: string, params?: Params): string
}

const FLAG_FIELDS = new Set(['autorenew_all', 'autorenew_domain', 'autorenew_server', 'transfer_lock', 'dynamicdns', 'whoisproxy'])
const FIELD_KEYS: Record<string, MessageKey> = {
  ns_type: 'stored.field.ns_type',
  ns: 'stored.field.ns',
  ds_records: 'stored.field.ds_records',
  whoisproxy: 'stored.field.whoisproxy',
  autorenew_all: 'stored.field.autorenew_all',
  autorenew_domain: 'stored.field.autorenew_domain',
  autorenew_server: 'stored.field.autorenew_server',
  transfer_lock: 'stored.field.transfer_lock',
  dynamicdns: 'stored.field.dynamicdns',
}
const isRole = (v: string | undefined): v is (typeof CONTACT_ROLES)[number] => (CONTACT_ROLES as readonly (string | undefined)[]).includes(v)
const isContactField = (v: string | undefined): v is (typeof CONTACT_FIELDS)[number] => (CONTACT_FIELDS as readonly (string | undefined)[]).includes(v)

/** A field's label; one this version does not know is shown as the service names it. */
function storedFieldLabel({ t }: Words, field: string): string {
  const key = FIELD_KEYS[field]
  if (key) return t(key)
  const [head, role, name] = field.split('.')
  if (head === 'contact' && isRole(role) && isContactField(name)) return `${t(`domain.role.${role}`)}: ${t(`domain.field.${name}`)}`
  return field
}

const flagText = ({ t }: Words, v: string | number | undefined) => (String(v) === '1' ? t('common.on') : String(v) === '0' ? t('common.off') : String(v ?? ''))

export function storedText(words: Words, f: StoredFinding): string {
  const field = String(f.params.field ?? '')
  if (f.code === 'stored.valueChanged' || f.code === 'stored.listChanged') {
    const flag = FLAG_FIELDS.has(field)
    return words.tCode(f.code, {
      field: storedFieldLabel(words, field),
      sent: flag ? flagText(words, f.params.sent) : String(f.params.sent ?? ''),
      stored: flag ? flagText(words, f.params.stored) : String(f.params.stored ?? ''),
    })
  }
  return words.tCode(f.code, f.params)
}
