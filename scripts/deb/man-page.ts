/**
 * hosting-admin(1), made from the command table (src/cli/commands.ts) and the catalogue: each
 * command's section is its own `--help` text, so the page never says other than the command does.
 * One page per language (English in man1, Japanese in ja/man1); the Debian package gzips them.
 */
import type { Locale } from '@shared/i18n/catalogue'
import { COMMANDS } from '../../src/cli/commands'
import { texts } from '../../src/cli/text'

/**
 * Text as roff reads it: a backslash is \e, a hyphen \- (an option's minus sign, as man pages
 * write it), and a line that starts with a dot or a quote is not taken for a request.
 */
function roffText(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const escaped = line.replace(/\\/g, '\\e').replace(/-/g, '\\-')
      return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped
    })
    .join('\n')
}

/** Lines kept as written (the help texts align their options in columns). */
const asWritten = (text: string) => `.nf\n${roffText(text)}\n.fi`

/** The page in one language; `date` (YYYY-MM-DD) is the release's, so two builds of one version are the same. */
export function manPage(locale: Locale, version: string, date: string): string {
  const say = texts(locale)
  const section = (title: string) => `.SH ${roffText(title)}`
  const lines = [
    `.\\" Made by scripts/deb/man-page.ts from the command table (src/cli/commands.ts): edit those, not this.`,
    `.TH HOSTING\\-ADMIN 1 "${date}" "hosting\\-admin ${roffText(version)}" "Hosting Admin"`,
    '.SH NAME',
    `hosting\\-admin \\- ${roffText(say.t('deb.man.summary'))}`,
    '.SH SYNOPSIS',
    asWritten(say.t('deb.man.synopsis')),
    '.SH DESCRIPTION',
    roffText(say.t('deb.man.description')),
    section(say.t('deb.man.commands')),
  ]
  for (const command of COMMANDS) lines.push(`.SS ${roffText(command.words)}`, asWritten(say.t(command.help)))
  lines.push(
    section(say.t('deb.man.options')),
    roffText(say.t('cli.help.common')),
    section(say.t('deb.man.environment')),
    asWritten(say.t('deb.man.environmentText')),
    section(say.t('deb.man.files')),
    asWritten(say.t('deb.man.filesText')),
    section(say.t('deb.man.seeAlso')),
    '.BR certbot (1),',
    '.BR lego (1),',
    '.BR systemd.exec (5),',
    '.BR systemd\\-creds (1)',
  )
  return `${lines.join('\n')}\n`
}
