import { existsSync } from 'node:fs';
import { nativeBindingPath } from '../packaging/native-binding-path.js';

/** better-sqlite3 has no build for the running Electron: `npm run native:electron` makes it. */
export class NativeBindingMissingError extends Error {
  readonly code = 'NATIVE_MODULE_MISSING';
}

export interface RuntimeIdentity {
  electronVersion: string;
  platform: NodeJS.Platform;
  arch: string;
}

/**
 * The better-sqlite3 binary built for this Electron, beside (never instead of) the Node build in
 * node_modules that `npm test` and the headless host load. Inside a packaged app the file sits in
 * app.asar.unpacked, since a native module cannot be loaded from within the archive.
 */
export function electronNativeBinding(appRoot: string, runtime: RuntimeIdentity): string {
  const packed = nativeBindingPath(appRoot, {
    runtime: 'electron',
    version: runtime.electronVersion,
    platform: runtime.platform,
    arch: runtime.arch,
  });
  const file = packed.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
  if (!existsSync(file)) {
    throw new NativeBindingMissingError(
      `better-sqlite3 has no build for Electron ${runtime.electronVersion} (${runtime.platform}-${runtime.arch}): ` +
        `${file} is missing. In a source checkout, run \`npm run native:electron\`.`,
    );
  }
  return file;
}
