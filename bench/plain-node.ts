/**
 * The flags a child Node process would take from this one, without any module loader: the
 * benches fork the built main bundle's host, which Electron runs without one. A tree's own built
 * shell (67dc050's, in a comparison) passes `process.execArgv` on as it is, and the tsx loader the
 * bench runs under then handled every file main imported: 25-35 MB of main's resident memory,
 * more the larger the bundle, on both sides of a comparison but not in equal measure.
 */
const LOADER_FLAGS = new Set(['--require', '-r', '--import', '--loader', '--experimental-loader'])

export function withoutLoaders(execArgv: readonly string[]): string[] {
  const kept: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!
    const [name] = flag.split('=', 1)
    if (!LOADER_FLAGS.has(name!)) kept.push(flag)
    else if (!flag.includes('=')) i++ // its value is the next argument
  }
  return kept
}

/** Children forked from here on start as plain Node (this process keeps the loader it has). */
export function forkPlainNode(): void {
  process.execArgv.splice(0, process.execArgv.length, ...withoutLoaders(process.execArgv))
}
