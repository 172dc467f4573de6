/**
 * The demo account loads the sandbox module on first use. That load takes a moment, and a
 * close() that comes during it must still stop the sandbox, as it did when the module was
 * imported up front: otherwise a quit right after start would leave a server listening.
 */
import { describe, expect, it } from 'vitest'
import { sandboxDemo } from '../../src/main/accounts/demo'
import { DEFAULT_SERVER_LABELS, DEFAULT_SERVER_PATHS } from '../../src/sandbox'

describe('the demo sandbox, loaded on demand', () => {
  it('starts with the default server kinds and a working key', async () => {
    const demo = sandboxDemo()
    try {
      const info = await demo.start()
      expect(info.serverKinds).toEqual({
        a: { path: DEFAULT_SERVER_PATHS.a, label: DEFAULT_SERVER_LABELS.a },
        b: { path: DEFAULT_SERVER_PATHS.b, label: DEFAULT_SERVER_LABELS.b },
        c: { path: DEFAULT_SERVER_PATHS.c, label: DEFAULT_SERVER_LABELS.c },
      })
      const res = await fetch(`${info.baseUrl}/domains?limit=1`, {
        headers: { authorization: `Bearer ${info.apiKey}` },
      })
      expect(res.status).toBe(200)
      // A second start reuses the running sandbox.
      expect((await demo.start()).baseUrl).toBe(info.baseUrl)
    } finally {
      await demo.close()
    }
  })

  it('a close() that comes while the module is still loading stops the sandbox', async () => {
    const demo = sandboxDemo()
    const starting = demo.start()
    await demo.close()
    const info = await starting
    expect(demo.sandbox()).toBeDefined()
    await expect(
      fetch(`${info.baseUrl}/domains`, { headers: { authorization: `Bearer ${info.apiKey}` } }),
    ).rejects.toThrow()
  })
})
