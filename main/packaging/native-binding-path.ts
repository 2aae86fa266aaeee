/**
 * Where builds of better-sqlite3 for a given runtime live, beside the Node build in node_modules.
 *
 * Imported at run time by the Electron shell, so it depends on nothing but node:fs and node:path
 * (no build tooling): the shell passes `nativeBindingPath(app root, electron target)` to the host
 * core's `nativeBinding` option. Written by build-native.ts (`npm run native:electron`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The version of the `electron` package in node_modules, or undefined when it is not installed.
 * Only its manifest is read: requiring electron's index would try to download its binary.
 */
export function installedElectronVersion(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('electron/package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

export type NativeRuntime = 'node' | 'electron';

export interface NativeTarget {
  runtime: NativeRuntime;
  /** The runtime's version, e.g. Electron's `45.5.0` or Node's `20.19.0` (no leading v). */
  version: string;
  platform: string;
  arch: string;
}

/** The folder, relative to the app root, that holds every non-default build of better-sqlite3. */
export const NATIVE_BINDING_DIR = join('build', 'native', 'better-sqlite3');

const SAFE_PART = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/** `electron-v45.5.0-linux-x64.node`: one file per ABI-relevant combination. */
export function nativeBindingFileName(target: NativeTarget): string {
  const version = target.version.replace(/^v/, '');
  for (const [name, value] of [['version', version], ['platform', target.platform], ['arch', target.arch]] as const) {
    // These end up in a file name: refuse separators and the like instead of writing elsewhere.
    if (!SAFE_PART.test(value)) throw new Error(`native binding ${name} ${JSON.stringify(value)} is not a plain name`);
  }
  if (target.runtime !== 'node' && target.runtime !== 'electron') {
    throw new Error(`native binding runtime must be node or electron, not ${JSON.stringify(target.runtime)}`);
  }
  return `${target.runtime}-v${version}-${target.platform}-${target.arch}.node`;
}

/** `<root>/build/native/better-sqlite3/<runtime>-v<version>-<platform>-<arch>.node` */
export function nativeBindingPath(root: string, target: NativeTarget): string {
  return join(root, NATIVE_BINDING_DIR, nativeBindingFileName(target));
}

/** Whether `npm run native:electron` has produced a binary for this Electron version here. */
export function hasElectronNativeBuild(
  root: string,
  version: string,
  platform: string = process.platform,
  arch: string = process.arch,
): boolean {
  return existsSync(nativeBindingPath(root, { runtime: 'electron', version, platform, arch }));
}

