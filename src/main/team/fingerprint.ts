/**
 * How an account is recognised across the team's workstations without its key leaving any of
 * them: HMAC-SHA256 keyed with the API key itself, over the team's id (a random UUID made with
 * the schema). Only someone holding the key can compute it; the same key in another team gives
 * another fingerprint, so a fingerprint says nothing outside its team; and the database alone
 * cannot be used to test guessed keys without also holding the team id and computing one HMAC
 * per guess — API keys are long random strings, so that is no way in.
 */
import { createHmac } from 'node:crypto'

export function accountFingerprint(apiKey: string, teamId: string): string {
  return createHmac('sha256', apiKey).update(`hosting-admin team account v1\0${teamId}`).digest('base64url')
}
