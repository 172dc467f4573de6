/**
 * One confirmation dialog for the whole app. `confirm()` opens it with a text that states
 * exactly what will happen and resolves to the user's answer.
 */
import { shallowRef } from 'vue'
import type { AccountMarks } from './text/account-text'

/** One item of a job in the confirmation: what it acts on and what it changes there. */
export interface ConfirmItem {
  label: string
  effect?: string | undefined
}

/** One account of a write to several accounts. */
export interface ConfirmAccount {
  /** The account's id: the name typed in its field goes to its jobs. */
  accountId: string
  marks: AccountMarks
  /** What it is sent, in a few words ("3 zones"). */
  detail: string
  /** The account asks for its name: the name to type. */
  nameToType?: string | undefined
}

export interface ConfirmRequest {
  title: string
  lines: string[]
  confirmLabel: string
  /** The account the job goes to, named in every confirmation with its colour and tag. */
  account?: AccountMarks | undefined
  /** An account that asks for its name before paid or ownership operations: the name to type. */
  accountNameToType?: string | undefined
  /**
   * A write to several accounts at once (a bulk DNS change): each account, marked, with what it
   * is sent; an account that asks for its name has it typed, each in its own field.
   */
  accounts?: ConfirmAccount[] | undefined
  /** Each item and its effect (a renewal's current and new expiration date). */
  items?: ConfirmItem[] | undefined
  /** Typed confirmation: the user must type this text to enable the confirm button. */
  typeToConfirm?: string
  resolve: (ok: boolean, typed?: TypedNames) => void
}

/** What the user typed in the name fields (sent to main as typed: main compares it with the name). */
export interface TypedNames {
  accountName: string
  /** By the accounts' place in `accounts`. */
  accountNames: string[]
}

export const pendingConfirm = shallowRef<ConfirmRequest | undefined>()

export function confirm(req: Omit<ConfirmRequest, 'resolve'>): Promise<boolean> {
  return confirmTyped(req).then((a) => a.ok)
}

/** As confirm, with the names as the user typed them. */
export function confirmTyped(req: Omit<ConfirmRequest, 'resolve'>): Promise<{ ok: boolean; typed: TypedNames }> {
  return new Promise((resolve) => {
    pendingConfirm.value = {
      ...req,
      resolve: (ok, typed) => {
        pendingConfirm.value = undefined
        resolve({ ok, typed: typed ?? { accountName: '', accountNames: [] } })
      },
    }
  })
}
