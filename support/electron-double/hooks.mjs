// Module resolution hook: `import ... from 'electron'` in the built bundle gets the double.
const DOUBLE = new URL('./electron.cjs', import.meta.url).href

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: DOUBLE, format: 'commonjs', shortCircuit: true }
  return next(specifier, context)
}
