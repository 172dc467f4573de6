/**
 * The built-in demo account's name and marks, apart from the profile schemas: the quick
 * `hosting-admin accounts` of an empty data folder lists the demo without loading zod.
 */
import type { AccountColour, AccountEnvironment } from './index'

/** The built-in demo's name, as the accounts list gives it (the renderer words it in the user's language). */
export const DEMO_ACCOUNT_NAME = 'Demo (local sandbox)'

/** The demo's marks, fixed: a neutral colour and the "test" tag (it is a sandbox with sample data). */
export const DEMO_MARKS = { colour: 'slate', environment: 'test', readOnly: false } as const satisfies {
  colour: AccountColour
  environment: AccountEnvironment
  readOnly: boolean
}
