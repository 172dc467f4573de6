// Types of after-pack.mjs (electron-builder loads the .mjs itself; the tests import it through these).
import type { FuseV1Config, FuseV1Options } from '@electron/fuses'
import type { Arch } from 'electron-builder'

/** The architecture names of electron-builder's Arch enum. */
export type ArchName = 'ia32' | 'x64' | 'armv7l' | 'arm64' | 'universal'

/** The part of electron-builder's AfterPackContext that the hook reads. */
export interface PackedApp {
  readonly appOutDir: string
  readonly electronPlatformName: string
  readonly arch: Arch
  readonly packager: {
    readonly appInfo: { readonly productFilename: string }
    /** Set by electron-builder's LinuxPackager only. */
    readonly executableName?: string
  }
}

export declare const FUSES: Readonly<Partial<Record<FuseV1Options, boolean>>>
export declare function fuseConfig(platform: string, arch: ArchName | undefined): FuseV1Config
export declare function applyFuses(executablePath: string, platform: string, arch: ArchName | undefined): Promise<void>
export declare function electronExecutable(context: PackedApp): string
export declare function resourcesDir(context: PackedApp): string
export declare function assertCommandShipped(context: PackedApp): void
export default function afterPack(context: PackedApp): Promise<void>
