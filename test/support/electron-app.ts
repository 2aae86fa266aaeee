import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from '../../build/main/cli/desktop.js';
import { installedElectronVersion, nativeBindingPath } from '../../build/main/packaging/native-binding-path.js';

export const APP_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHELL_ENTRY = fileURLToPath(new URL('../../build/main/shell/electron-main.js', import.meta.url));

/**
 * Why the real-Electron tests cannot run here, or undefined when they can: they need Electron's
 * binary (downloaded on first use, which machines without access to its host cannot do) and the
 * better-sqlite3 build for that Electron (`npm run native:electron`).
 */
export function electronMissingReason(): string | undefined {
  const found = findElectronBinary();
  if ('reason' in found) return `${found.reason}; the shell is covered under plain Node by test/unit/shell instead`;
  const version = installedElectronVersion() ?? '';
  const binding = nativeBindingPath(APP_ROOT, { runtime: 'electron', version, platform: process.platform, arch: process.arch });
  if (!existsSync(binding)) return `better-sqlite3 has no build for Electron ${version} (${binding}); run npm run native:electron`;
  if (process.platform === 'linux' && !process.env['DISPLAY'] && spawnSync('which', ['Xvfb']).status !== 0) {
    return 'no display and no Xvfb to make one';
  }
  return undefined;
}

export function electronBinary(): string {
  const found = findElectronBinary();
  if ('reason' in found) throw new Error(found.reason);
  return found.path;
}

/** A display for Electron's window on Linux: the one there is, or a private Xvfb. */
export async function ensureDisplay(): Promise<{ env: Record<string, string>; stop: () => void }> {
  if (process.platform !== 'linux' || process.env['DISPLAY']) return { env: {}, stop: () => undefined };
  const display = `:${90 + Math.floor(Math.random() * 100)}`;
  const xvfb: ChildProcess = spawn('Xvfb', [display, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { env: { DISPLAY: display }, stop: () => xvfb.kill() };
}
