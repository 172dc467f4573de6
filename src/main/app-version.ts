/** The app's version, from package.json (the bundler inlines it). */
import pkg from '../../package.json' with { type: 'json' }

export const APP_VERSION: string = pkg.version
