/**
 * The shared domain-name rule's findings (src/shared/service/validation.ts) in the user's words. Each
 * code has its catalogue key here, so a code without a text fails the type check.
 */
import { t } from '../../i18n'
import type { MessageKey } from '@shared/i18n/catalogue'
import type { DomainNameCode, Finding } from '@shared/service/validation'

const KEYS: Record<DomainNameCode, MessageKey> = {
  'domainName.empty': 'domainName.empty',
  'domainName.ascii': 'domainName.ascii',
  'domainName.length': 'domainName.length',
  'domainName.noTld': 'domainName.noTld',
  'domainName.emptyLabel': 'domainName.emptyLabel',
  'domainName.labelLength': 'domainName.labelLength',
  'domainName.characters': 'domainName.characters',
  'domainName.hyphen': 'domainName.hyphen',
  'domainName.tld': 'domainName.tld',
}

export function domainNameProblemText(problem: Finding<DomainNameCode>): string {
  return t(KEYS[problem.code], problem.params)
}
