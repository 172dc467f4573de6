/**
 * Findings about what the service kept (src/shared/service/service-kept.ts) in the user's words: field
 * names get their labels, 0 / 1 flags read On / Off. The words come in as a parameter (the
 * app passes its reactive `t` / `tCode`), so a test can read exactly what a user reads
 * without a browser.
 */
import { CONTACT_FIELDS, CONTACT_ROLES } from '../service/constants'
import type { ServiceKeptFinding } from '../service/service-kept'
import type { MessageKey } from './catalogue'
import type { Params } from './format'

export interface Words {
  t(key: MessageKey, params?: Params): string
  tCode(code: string, params?: Params): string
}

const FLAG_FIELDS = new Set([
  'autorenew_all',
  'autorenew_domain',
  'autorenew_server',
  'transfer_lock',
  'dynamicdns',
  'whoisproxy',
])
const FIELD_KEYS: Record<string, MessageKey> = {
  ns_type: 'serviceKept.field.ns_type',
  ns: 'serviceKept.field.ns',
  ds_records: 'serviceKept.field.ds_records',
  whoisproxy: 'serviceKept.field.whoisproxy',
  autorenew_all: 'serviceKept.field.autorenew_all',
  autorenew_domain: 'serviceKept.field.autorenew_domain',
  autorenew_server: 'serviceKept.field.autorenew_server',
  transfer_lock: 'serviceKept.field.transfer_lock',
  dynamicdns: 'serviceKept.field.dynamicdns',
}
const isRole = (v: string | undefined): v is (typeof CONTACT_ROLES)[number] => CONTACT_ROLES.some((r) => r === v)
const isContactField = (v: string | undefined): v is (typeof CONTACT_FIELDS)[number] =>
  CONTACT_FIELDS.some((f) => f === v)

/** A field's label; one this version does not know is shown as the service names it. */
function serviceKeptFieldLabel({ t }: Words, field: string): string {
  const key = FIELD_KEYS[field]
  if (key) return t(key)
  const [head, role, name] = field.split('.')
  if (head === 'contact' && isRole(role) && isContactField(name))
    return `${t(`domain.role.${role}`)}: ${t(`domain.field.${name}`)}`
  return field
}

const flagText = ({ t }: Words, v: string | number | undefined) =>
  String(v) === '1' ? t('common.on') : String(v) === '0' ? t('common.off') : String(v ?? '')

export function serviceKeptText(words: Words, f: ServiceKeptFinding): string {
  const field = String(f.params.field ?? '')
  if (f.code === 'serviceKept.valueChanged' || f.code === 'serviceKept.listChanged') {
    // A contact's values are personal data, which the journal does not keep: after a restart the change is only named.
    if (f.params.sent === undefined && f.params.kept === undefined)
      return words.t('serviceKept.valueChangedNotKept', { field: serviceKeptFieldLabel(words, field) })
    const flag = FLAG_FIELDS.has(field)
    return words.tCode(f.code, {
      field: serviceKeptFieldLabel(words, field),
      sent: flag ? flagText(words, f.params.sent) : String(f.params.sent ?? ''),
      kept: flag ? flagText(words, f.params.kept) : String(f.params.kept ?? ''),
    })
  }
  return words.tCode(f.code, f.params)
}
