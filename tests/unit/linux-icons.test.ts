/**
 * The Linux icon: electron-builder resolves electron-builder.yml's linux.icon into the icons it
 * installs under hicolor/<N>x<N>/apps. A single 1024 px PNG became one icon of 1024 px, a size no
 * icon theme lists (the menu showed no icon); the folder gives 16 to 512 px, each the size its
 * name says, and the same pictures scripts/linux-icons.mjs makes from build/icon.png.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Configuration } from 'electron-builder'
import { getConfig } from 'app-builder-lib/out/util/config/config.js'
import { convertIcon, getPngSize } from 'app-builder-lib/out/util/iconConverter.js'

const projectDir = resolve('.')
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512]

describe('the Linux icon', () => {
  it('is a set of 16 to 512 px, as electron-builder resolves the configuration, each its named size', async () => {
    const config: Configuration = await getConfig(projectDir, null, null)
    const icon = config.linux?.icon
    expect(typeof icon).toBe('string')
    const { icons, isFallback } = await convertIcon({
      sources: [String(icon)],
      fallbackSources: [],
      roots: [join(projectDir, 'build'), projectDir],
      format: 'set',
      outDir: mkdtempSync(join(tmpdir(), 'icon-set-')),
    })
    expect(isFallback).toBe(false)
    expect(icons.map((i) => i.size)).toEqual(SIZES)
    for (const i of icons) {
      expect(basename(i.file)).toBe(`${i.size}x${i.size}.png`)
      expect(await getPngSize(i.file)).toEqual({ width: i.size, height: i.size })
    }
  })

  it('is what scripts/linux-icons.mjs makes from build/icon.png (the committed files are not stale)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'linux-icons-'))
    const r = spawnSync(process.execPath, ['scripts/linux-icons.mjs', 'build/icon.png', dir], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(r.status, r.stderr).toBe(0)
    for (const n of SIZES)
      expect(
        readFileSync(join(dir, `${n}x${n}.png`)).equals(readFileSync(`build/icons/${n}x${n}.png`)),
        `${n}x${n}`,
      ).toBe(true)
  })
})
