/** The app's version, from package.json (the bundler inlines it), and its identity on Windows. */
import pkg from '../../../package.json' with { type: 'json' }

export const APP_VERSION: string = pkg.version

/**
 * The installer's appId (electron-builder.yml), which its Start menu shortcut carries: Windows
 * shows a notification, and keeps the user's choice to mute them, only for a process of the same id.
 */
export const APP_USER_MODEL_ID = 'com.example.hosting-admin'
