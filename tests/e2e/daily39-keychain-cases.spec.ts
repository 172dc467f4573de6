/**
 * Issue 39, point 1, the two cases keychain-truth.spec.ts (a key gone from the real keychain) does
 * not walk: a truly locked keyring and no Secret Service at all. For each, in English and Japanese
 * at 1024x700: what the keychain says is what the window says, one banner per cause on Domains
 * and on Expiring soon (which read several parts each), the Accounts card in the banner's words;
 * and, locked, one unlock prompt at a time however many reads need the key.
 *
 * The keychain is the app's own KeytarSecretStore over a stand-in for keytar and the Secret
 * Service: the real GNOME Keyring's unlock prompt cannot be shown or counted without a display.
 * The stand-in answers as they do (tests/integration/keychain-truth.test.ts shows the real one's
 * answers): a lookup in a locked collection raises the unlock prompt and gives null once it is
 * dismissed; without a Secret Service every call fails as libsecret fails without a bus.
 */
import type { Page } from '@playwright/test'
import { KeytarSecretStore, type KeytarLike, type KeyPlace } from '../../src/main/accounts/secret-store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import type { Harness } from '../../support/harness'
import { expect, reloadInLanguage, snap, test as base } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'
import { z } from 'zod'

/**
 * The Secret Service with one locked collection, behind keytar: a lookup of an item in it while
 * it is locked raises the unlock prompt, which stays up until the user answers it ("hold"), or is
 * dismissed at once ("dismiss", as when no prompt can be shown).
 */
class PromptingKeyring implements KeytarLike {
  locked = false
  mode: 'hold' | 'dismiss' = 'dismiss'
  /** Unlock prompts raised, and the most ever up at once. */
  prompts = 0
  mostAtOnce = 0
  /** Reads that asked where a key is while a prompt was up (each read asks first). */
  askedDuringPrompt = 0
  private readonly items = new Map<string, string>()
  private readonly up: (() => void)[] = []

  async getPassword(service: string, account: string): Promise<string | null> {
    const item = () => this.items.get(`${service}/${account}`) ?? null
    if (!this.locked || !this.items.has(`${service}/${account}`)) return item()
    this.prompts++
    if (this.mode === 'dismiss') return null
    return new Promise((done) => {
      this.up.push(() => done(this.locked ? null : item()))
      this.mostAtOnce = Math.max(this.mostAtOnce, this.up.length)
    })
  }
  async setPassword(service: string, account: string, password: string) {
    this.items.set(`${service}/${account}`, password)
  }
  async deletePassword(service: string, account: string) {
    return this.items.delete(`${service}/${account}`)
  }
  async locate(service: string, account: string): Promise<KeyPlace> {
    if (this.up.length > 0) this.askedDuringPrompt++
    if (!this.items.has(`${service}/${account}`)) return 'absent'
    return this.locked ? 'locked' : 'unlocked'
  }
  get promptsUp(): number {
    return this.up.length
  }
  /** The user dismisses the prompts that are up; later ones are dismissed at once. */
  dismiss() {
    this.mode = 'dismiss'
    for (const answer of this.up.splice(0)) answer()
  }
  /** The user unlocks the collection (the prompts up, if any, give the key). */
  unlock() {
    this.locked = false
    for (const answer of this.up.splice(0)) answer()
  }
  reset() {
    this.locked = false
    this.mode = 'dismiss'
    this.prompts = 0
    this.mostAtOnce = 0
    this.askedDuringPrompt = 0
    this.up.splice(0)
  }
}

/** keytar where no Secret Service is on the bus: every call fails as libsecret's does, and the bus cannot be asked where an item is. */
const NO_BUS = 'Cannot autolaunch D-Bus without X11 $DISPLAY'
const noSecretService: KeytarLike = {
  getPassword: () => Promise.reject(new Error(NO_BUS)),
  setPassword: () => Promise.reject(new Error(NO_BUS)),
  deletePassword: () => Promise.reject(new Error(NO_BUS)),
  locate: async () => undefined,
}

const WORDS = {
  en: {
    domains: 'Domains',
    expiring: /^Expiring soon/,
    expiringTitle: 'Expiring soon',
    accounts: 'Accounts & settings',
    retry: 'Retry',
    locked: 'Unlock your keyring',
    notLost: 'The key is not lost: do not replace it.',
    lockedCard: 'Key in keychain, which is locked: unlock your keyring',
    noService: 'No Secret Service is reachable on D-Bus.',
    unreachableCard: 'Key in keychain, which cannot be reached (no Secret Service)',
    keychainDown: 'The system keychain is not available',
    accountFailed: 'The account “Kept” could not be read:',
  },
  ja: {
    domains: 'ドメイン',
    expiring: /^期限が近いもの/,
    expiringTitle: '期限が近いもの',
    accounts: 'アカウントと設定',
    retry: '再試行',
    locked: 'キーリングのロックを解除してから',
    notLost: '置き換える必要はありません',
    lockedCard: 'キーはキーチェーンにあります (ロック中: キーリングのロックを解除してください)',
    noService: 'D-Bus上にSecret Serviceが見つかりません。',
    unreachableCard: 'キーはキーチェーンにありますが、接続できません (Secret Service がありません)',
    keychainDown: 'システムのキーチェーンを利用できません',
    accountFailed: 'アカウント「Kept」を読み込めませんでした:',
  },
} as const

/** The window's calls of this account's reads made since `since` that main has not answered yet (they wait for the key). */
function waitingReads(harness: Harness, accountId: string, since: number): number {
  const accountOf = (payload: unknown) => z.object({ accountId: z.string() }).safeParse(payload).data?.accountId
  return harness.windowCalls.slice(since).filter((c) => !c.answered && accountOf(c.payload) === accountId).length
}

async function go(app: Page, link: string | RegExp, heading: string) {
  await app
    .getByRole('navigation')
    .getByRole('link', { name: link, exact: typeof link === 'string' })
    .click()
  await expect(app.getByRole('heading', { level: 1, name: heading })).toBeVisible()
}

const keyring = new PromptingKeyring()

base.describe('a locked keyring', () => {
  base.use({ harnessOptions: { keychain: new KeytarSecretStore(keyring, 'hosting-admin-e2e-locked') } })

  for (const lang of ['en', 'ja'] as const) {
    base(
      `one unlock prompt at a time, one banner on Domains and on Expiring soon, the card says locked, and unlocking brings the list (${lang})`,
      async ({ app, harness }) => {
        const w = WORDS[lang]
        keyring.reset()
        await app.setViewportSize({ width: 1024, height: 700 })
        const other = await startSandbox({ domains: 5 })
        try {
          const acct = await harness.services.accounts.create(profileFor(other, 'Kept'), other.keys.full, 'keychain')
          // The collection locked before anything reads the key, and its prompt left up until the user answers it.
          keyring.locked = true
          keyring.mode = 'hold'
          await harness.services.accounts.setActive(acct.id)
          await reloadInLanguage(app, lang)
          // The first screen's reads need the key: the prompt is up.
          await expect.poll(() => keyring.promptsUp).toBe(1)
          const raised = keyring.prompts
          const askedBefore = keyring.askedDuringPrompt
          const callsBefore = harness.windowCalls.length

          // Domains reads its list, needing the key too: it waits for the prompt that is up
          // instead of raising one of its own (the keyring once raised eleven).
          await go(app, w.domains, w.domains)
          await expect.poll(() => waitingReads(harness, acct.id, callsBefore)).toBeGreaterThanOrEqual(1)
          await expect.poll(() => keyring.askedDuringPrompt - askedBefore).toBeGreaterThanOrEqual(1)
          expect(keyring.prompts).toBe(raised)
          expect(keyring.mostAtOnce).toBe(1)

          // Dismissed: the keyring stays locked, and the screen says so once, as locked, not lost.
          keyring.dismiss()
          const banner = app.getByRole('alert').filter({ hasText: w.locked })
          await expect(banner).toHaveCount(1)
          await expect(banner).toContainText(w.notLost)
          await expect(app.getByRole('alert')).toHaveCount(1)
          expect(keyring.mostAtOnce).toBe(1)
          await snap(app, `daily39-keyring-locked-domains-${lang}`)
          await expectNoAxeViolationsIn(app, 'main', `Domains with a locked keyring (${lang})`)

          // Expiring soon reads five parts of the account: the first raises the prompt, the other
          // four wait for it; then one line for the account, one banner.
          keyring.mode = 'hold'
          const askedOnDomains = keyring.askedDuringPrompt
          const callsOnDomains = harness.windowCalls.length
          await go(app, w.expiring, w.expiringTitle)
          await expect.poll(() => keyring.promptsUp).toBe(1)
          await expect.poll(() => waitingReads(harness, acct.id, callsOnDomains)).toBeGreaterThanOrEqual(5)
          await expect.poll(() => keyring.askedDuringPrompt - askedOnDomains).toBeGreaterThanOrEqual(4)
          expect(keyring.mostAtOnce).toBe(1)
          keyring.dismiss()
          await expect(app.getByText(w.accountFailed)).toHaveCount(1)
          await expect(app.getByRole('alert').filter({ hasText: w.locked })).toHaveCount(1)
          await expect(app.getByRole('alert')).toHaveCount(1)
          await expectNoAxeViolationsIn(app, 'main', `Expiring soon with a locked keyring (${lang})`)

          // The card says what the banners say; listing the accounts raises no prompt.
          const prompts = keyring.prompts
          await go(app, w.accounts, w.accounts)
          await expect(app.getByRole('article', { name: /Kept/ })).toContainText(w.lockedCard)
          expect(keyring.prompts).toBe(prompts)

          // Unlocked, Retry on Domains brings the list.
          await go(app, w.domains, w.domains)
          await expect(banner).toHaveCount(1)
          keyring.unlock()
          await banner.getByRole('button', { name: w.retry }).click()
          await expect(app.getByRole('link', { name: other.state.domains[0]!.domainname, exact: true })).toBeVisible()
          await expect(app.getByRole('alert')).toHaveCount(0)
        } finally {
          keyring.reset()
          await other.close()
        }
      },
    )
  }
})

/** An account whose key an earlier run put in the keychain, active, in the accounts file the app starts with. */
const KEPT_ID = 'kept-in-keychain'
const test = base.extend<{ other: Sandbox }>({
  other: async ({}, use) => {
    const sb = await startSandbox({ domains: 5 })
    await use(sb)
    await sb.close()
  },
  userDataFiles: async ({ other }, use) => {
    await use({
      'accounts.json': JSON.stringify({
        version: 1,
        activeId: KEPT_ID,
        accounts: [{ ...profileFor(other, 'Kept'), id: KEPT_ID, keyKept: 'keychain' }],
      }),
    })
  },
})

test.describe('no Secret Service', () => {
  test.use({ harnessOptions: { keychain: new KeytarSecretStore(noSecretService, 'hosting-admin-e2e-no-bus') } })

  for (const lang of ['en', 'ja'] as const) {
    test(`said as no Secret Service, once on Domains and on Expiring soon, and on the card (${lang})`, async ({
      app,
      other,
    }) => {
      const w = WORDS[lang]
      await app.setViewportSize({ width: 1024, height: 700 })
      await reloadInLanguage(app, lang)

      await go(app, w.domains, w.domains)
      const banner = app.getByRole('alert').filter({ hasText: w.noService })
      await expect(banner).toHaveCount(1)
      await expect(banner).not.toContainText(w.locked)
      await expect(app.getByRole('alert')).toHaveCount(1)
      await snap(app, `daily39-no-secret-service-domains-${lang}`)
      await expectNoAxeViolationsIn(app, 'main', `Domains without a Secret Service (${lang})`)

      await go(app, w.expiring, w.expiringTitle)
      await expect(app.getByText(w.accountFailed)).toHaveCount(1)
      await expect(app.getByRole('alert').filter({ hasText: w.noService })).toHaveCount(1)
      await expect(app.getByRole('alert')).toHaveCount(1)

      await go(app, w.accounts, w.accounts)
      await expect(app.getByRole('article', { name: /Kept/ })).toContainText(w.unreachableCard)
      await expect(app.getByRole('alert').filter({ hasText: w.keychainDown })).toContainText(w.noService)
      await expectNoAxeViolationsIn(app, 'main', `Accounts without a Secret Service (${lang})`)
      expect(other.received.length, 'nothing reached the service without a key').toBe(0)
    })
  }
})
