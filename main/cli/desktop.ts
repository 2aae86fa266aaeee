import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type DesktopAvailability =
  | { available: true; electronPath: string; launch: (argv: string[]) => Promise<number> }
  | { available: false; reason: string };

const SHELL_ENTRY = fileURLToPath(new URL('../shell/electron-main.js', import.meta.url));

/**
 * Finds Electron's binary without `require('electron')`: that call downloads the binary on first
 * use, which hangs or fails on machines without access to Electron's download host.
 */
export function findElectronBinary(): { path: string } | { reason: string } {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { reason: "Electron is not installed (no 'electron' package)" };
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override) return { path: join(override, relative || 'electron') };
  if (!relative) return { reason: "Electron's binary is not installed (it is downloaded on first use, and that download is not possible here)" };
  const binary = join(packageDir, 'dist', relative);
  if (!existsSync(binary)) return { reason: `Electron's binary is missing (${binary})` };
  return { path: binary };
}

export function describeDesktopAvailability(): DesktopAvailability {
  const found = findElectronBinary();
  if ('reason' in found) return { available: false, reason: found.reason };
  if (!existsSync(SHELL_ENTRY)) return { available: false, reason: 'this build has no desktop shell' };
  return {
    available: true,
    electronPath: found.path,
    launch: (argv) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(found.path, [SHELL_ENTRY, ...argv], { stdio: 'inherit' });
        child.once('error', reject);
        child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      }),
  };
}
