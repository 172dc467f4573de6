/** The words for each part of a record's value (the editor's fields, the bulk change's form). */
import type { KnownType, ValueField } from '@shared/dns/records'
import { t, type MessageKey } from '../../i18n'

const PART_LABEL: Record<ValueField, MessageKey> = {
  value: 'dnsEditor.value',
  priority: 'dnsEditor.part.priority',
  weight: 'dnsEditor.part.weight',
  port: 'dnsEditor.part.port',
  target: 'dnsEditor.part.target',
  flags: 'dnsEditor.part.flags',
  tag: 'dnsEditor.part.tag',
}

/** An MX record's target is its mail server. */
export const partLabel = (type: KnownType, f: ValueField): string =>
  t(type === 'mx' && f === 'target' ? 'dnsEditor.part.mailServer' : PART_LABEL[f])
