import { describe, expect, it } from 'vitest'
import { withoutLoaders } from '../../bench/plain-node'

describe("the bench's children start as plain Node", () => {
  it("drops tsx's loader, as tsx passes it on, and keeps every other flag", () => {
    const tsx = [
      '--require',
      '/repo/node_modules/tsx/dist/preflight.cjs',
      '--import',
      'file:///repo/node_modules/tsx/dist/loader.mjs',
    ]
    expect(withoutLoaders([...tsx, '--expose-gc', '--max-old-space-size=4096'])).toEqual([
      '--expose-gc',
      '--max-old-space-size=4096',
    ])
  })

  it('drops a loader given with = and the older loader flags', () => {
    expect(
      withoutLoaders([
        '--import=tsx',
        '--loader',
        'ts-node/esm',
        '--experimental-loader=x.mjs',
        '-r',
        'dotenv/config',
        '--inspect',
      ]),
    ).toEqual(['--inspect'])
  })

  it('leaves flags with no loader as they are', () => {
    expect(withoutLoaders([])).toEqual([])
    expect(withoutLoaders(['--expose-gc'])).toEqual(['--expose-gc'])
  })
})
