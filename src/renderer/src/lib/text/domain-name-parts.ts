/**
 * A domain (or server) name cut after each dot and hyphen: the places where a narrow cell may
 * wrap it without splitting a label ("glacieraurora." + "info", never "glacieraurora.inf" + "o").
 */
export function domainNameParts(name: string): string[] {
  return name.split(/(?<=[.-])/)
}
