/**
 * Shell completions for hosting-admin, made from the command table (src/cli/commands.ts) and the
 * flag table (src/cli/flags.ts): a command or flag added there is completed without an edit here.
 * bash's goes to /usr/share/bash-completion/completions/hosting-admin, zsh's to
 * /usr/share/zsh/vendor-completions/_hosting-admin. Neither needs bash-completion's helpers.
 */
import { COMMANDS } from '../../src/cli/commands'
import { COMMON_FLAGS, FLAGS, type FlagName } from '../../src/cli/flags'

/** What a flag's value is completed with: a file, a folder, one of some words, or nothing (a name, a duration). */
type ValueKind = { kind: 'file' } | { kind: 'dir' } | { kind: 'words'; words: string[] } | { kind: 'free' }

const VALUES: Partial<Record<FlagName, ValueKind>> = {
  'data-dir': { kind: 'dir' },
  'key-file': { kind: 'file' },
  'ca-file': { kind: 'file' },
  format: { kind: 'words', words: ['records', 'bind'] },
  sslmode: { kind: 'words', words: ['require', 'verify-full'] },
}

const valueOf = (flag: FlagName): ValueKind => VALUES[flag] ?? { kind: 'free' }
const takesValue = (flag: FlagName) => FLAGS[flag].type === 'string'

/** The first words (`dns`, `acme`, `accounts`), and for each the second words of its commands. */
function commandTree(): Map<string, string[]> {
  const tree = new Map<string, string[]>()
  for (const c of COMMANDS) {
    const [first = '', second] = c.words.split(' ')
    const seconds = tree.get(first) ?? []
    if (second !== undefined && !seconds.includes(second)) seconds.push(second)
    tree.set(first, seconds)
  }
  return tree
}

const flagsOf = (flags: readonly FlagName[]) => [...COMMON_FLAGS, ...flags].map((f) => `--${f}`).join(' ')
const isFlagName = (name: string): name is FlagName => name in FLAGS
const valueFlags = () => Object.keys(FLAGS).filter(isFlagName).filter(takesValue)

export function bashCompletion(): string {
  const tree = commandTree()
  const firstWords = [...tree.keys()].join(' ')
  const seconds = [...tree]
    .filter(([, s]) => s.length > 0)
    .map(([first, s]) => `    ${first}) next="${s.join(' ')}" ;;`)
  const flagCases = COMMANDS.map((c) => `    '${c.words}') flags="${flagsOf(c.flags)}" ;;`)
  const valueCases = valueFlags().map((f) => {
    const v = valueOf(f)
    const action =
      v.kind === 'file'
        ? 'compgen -f -- "$cur"'
        : v.kind === 'dir'
          ? 'compgen -d -- "$cur"'
          : v.kind === 'words'
            ? `compgen -W '${v.words.join(' ')}' -- "$cur"`
            : 'true'
    return `    --${f}) COMPREPLY=($(${action})); return ;;`
  })
  return `# bash completion for hosting-admin. Made by scripts/deb/completions.ts from the command table: edit that, not this.
_hosting_admin() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=
  [ "$COMP_CWORD" -gt 0 ] && prev=\${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
${valueCases.join('\n')}
  esac
  # The command's words so far, leaving out flags and the values of flags that take one.
  local words=() i w skip=
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [ -n "$skip" ]; then skip=; continue; fi
    case $w in
      ${valueFlags()
        .map((f) => `--${f}`)
        .join('|')}) skip=1 ;;
      -*) ;;
      *) words+=("$w") ;;
    esac
  done
  local flags=
  case "\${words[0]} \${words[1]}" in
${flagCases.filter((_, i) => COMMANDS[i]?.words.includes(' ')).join('\n')}
  esac
  [ -z "$flags" ] && case "\${words[0]}" in
${flagCases.filter((_, i) => !COMMANDS[i]?.words.includes(' ')).join('\n')}
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "\${flags:-${flagsOf([])}}" -- "$cur"))
  elif [ \${#words[@]} -eq 0 ]; then
    COMPREPLY=($(compgen -W "${firstWords}" -- "$cur"))
  elif [ \${#words[@]} -eq 1 ] && [ -z "$flags" ]; then
    local next=
    case "\${words[0]}" in
${seconds.join('\n')}
    esac
    COMPREPLY=($(compgen -W "$next" -- "$cur"))
  else
    # A command's own arguments: a domain, a zone file; files are offered.
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _hosting_admin hosting-admin
`
}

export function zshCompletion(): string {
  const tree = commandTree()
  const firstWords = [...tree.keys()].join(' ')
  const seconds = [...tree]
    .filter(([, s]) => s.length > 0)
    .map(([first, s]) => `    ${first}) compadd -- ${s.join(' ')}; return ;;`)
  const flagCases = COMMANDS.map((c) => `    '${c.words}') flags=(${flagsOf(c.flags)}) ;;`)
  const valueCases = valueFlags().map((f) => {
    const v = valueOf(f)
    const action =
      v.kind === 'file'
        ? '_files'
        : v.kind === 'dir'
          ? '_files -/'
          : v.kind === 'words'
            ? `compadd -- ${v.words.join(' ')}`
            : ':'
    return `    --${f}) ${action}; return ;;`
  })
  return `#compdef hosting-admin
# zsh completion for hosting-admin. Made by scripts/deb/completions.ts from the command table: edit that, not this.
_hosting_admin() {
  local prev=\${words[CURRENT-1]}
  case $prev in
${valueCases.join('\n')}
  esac
  local -a said flags
  local i w skip=
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    if [[ -n $skip ]]; then skip=; continue; fi
    case $w in
      ${valueFlags()
        .map((f) => `--${f}`)
        .join('|')}) skip=1 ;;
      -*) ;;
      *) said+=("$w") ;;
    esac
  done
  case "\${said[1]} \${said[2]}" in
${flagCases.filter((_, i) => COMMANDS[i]?.words.includes(' ')).join('\n')}
  esac
  (( \${#flags} )) || case "\${said[1]}" in
${flagCases.filter((_, i) => !COMMANDS[i]?.words.includes(' ')).join('\n')}
  esac
  if [[ $PREFIX == -* ]]; then
    (( \${#flags} )) || flags=(${flagsOf([])})
    compadd -- $flags
  elif (( \${#said} == 0 )); then
    compadd -- ${firstWords}
  elif (( \${#said} == 1 && \${#flags} == 0 )); then
    case "\${said[1]}" in
${seconds.join('\n')}
    esac
  else
    _files
  fi
}
_hosting_admin "$@"
`
}
