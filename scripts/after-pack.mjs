// electron-builder's afterPack hook (electron-builder.yml: afterPack): flips Electron's fuses in
// the packed app, after the app is copied in and before electron-builder signs it and builds
// the installers, and stops the build when the hosting-admin command is not in the app's
// resources (out/command not staged: npm run dist runs scripts/stage-command.ts first).
// Types: after-pack.d.mts beside this file.
//
// The fuse list is REQUIRED_FUSES of src/main/shell/security.ts plus GrantFileProtocolExtraPrivileges
// off; tests/unit/packaging.test.ts fails when the two differ, and runs applyFuses on a stand-in binary.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { FuseState, FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses'
import { Arch, log } from 'electron-builder'

/** The value of each fuse set in every packaged binary. Fuses not listed keep Electron's default. */
export const FUSES = Object.freeze({
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
})

const isMac = (platform) => platform === 'darwin' || platform === 'mas'

/** The @electron/fuses configuration for one packed app. */
export function fuseConfig(platform, arch) {
  return {
    version: FuseVersion.V1,
    // Flipping a fuse breaks the ad-hoc signature that an arm64 macOS binary cannot start without
    // (as @electron/fuses documents); a universal binary holds an arm64 slice.
    resetAdHocDarwinSignature: isMac(platform) && (arch === 'arm64' || arch === 'universal'),
    ...FUSES,
  }
}

/**
 * Flips FUSES in the Electron executable at executablePath (the .app bundle on macOS), then reads
 * them back. Throws when the file has no fuse wire, when the wire is too short for a fuse, when
 * this Electron marks a fuse as removed (flipFuses would only warn) and when a fuse did not take.
 */
export async function applyFuses(executablePath, platform, arch) {
  const before = await getCurrentFuseWire(executablePath)
  for (const option of Object.keys(FUSES)) {
    if (before[option] === FuseState.REMOVED) {
      throw new Error(`after-pack: this Electron has removed fuse ${FuseV1Options[option]}; review the fuse list`)
    }
  }
  await flipFuses(executablePath, fuseConfig(platform, arch))
  const after = await getCurrentFuseWire(executablePath)
  for (const [option, on] of Object.entries(FUSES)) {
    if (after[option] !== (on ? FuseState.ENABLE : FuseState.DISABLE)) {
      throw new Error(`after-pack: fuse ${FuseV1Options[option]} is not ${on ? 'on' : 'off'} in ${executablePath}`)
    }
  }
}

/** Where electron-builder put the Electron executable of the app it has just packed. */
export function electronExecutable(context) {
  const { appOutDir, electronPlatformName, packager } = context
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(appOutDir, `${packager.appInfo.productFilename}.app`)
    case 'win32':
      return join(appOutDir, `${packager.appInfo.productFilename}.exe`)
    case 'linux':
      if (typeof packager.executableName !== 'string')
        throw new Error('after-pack: the Linux packager has no executableName')
      return join(appOutDir, packager.executableName)
    default:
      throw new Error(`after-pack: no Electron executable known for platform ${electronPlatformName}`)
  }
}

/** The app's resources folder, where electron-builder.yml's extraResources go. */
export function resourcesDir(context) {
  const { appOutDir, electronPlatformName, packager } = context
  return isMac(electronPlatformName)
    ? join(appOutDir, `${packager.appInfo.productFilename}.app`, 'Contents', 'Resources')
    : join(appOutDir, 'resources')
}

/** Throws unless the packed app carries the command's launchers and its built entry. */
export function assertCommandShipped(context) {
  const cli = join(resourcesDir(context), 'cli')
  for (const file of ['hosting-admin', 'hosting-admin.cmd', 'hosting-admin.mjs', join('main', 'cli.js')]) {
    if (!existsSync(join(cli, file))) {
      throw new Error(
        `after-pack: the hosting-admin command is not in ${cli} (${file} is missing): run \`tsx scripts/stage-command.ts\` before electron-builder, as npm run dist does`,
      )
    }
  }
}

export default async function afterPack(context) {
  assertCommandShipped(context)
  const executable = electronExecutable(context)
  const arch = Arch[context.arch]
  await applyFuses(executable, context.electronPlatformName, arch)
  log.info({ executable: log.filePath(executable), arch }, 'flipped Electron fuses')
}
