/**
 * vitest's asymmetric matchers (`expect.any`, `expect.stringContaining`, …) typed as what they
 * are to a test: a value that toEqual and toMatchObject compare by its own rule. vitest types
 * them `any` so that they fit in any expected shape; inside an object literal that any is what
 * the lint's no-unsafe-assignment refuses, while `unknown` fits every expected value as well.
 */
import { expect } from 'vitest'

interface Matchers {
  any(type: unknown): unknown
  stringContaining(text: string): unknown
  stringMatching(pattern: string | RegExp): unknown
  objectContaining(members: object): unknown
  arrayContaining(items: unknown[]): unknown
}

export const match: Matchers = expect
