import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasElectronNativeBuild, installedElectronVersion } from '../packaging/native-binding-path.js';

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

/**
 * Whether the desktop app can start here; where Electron is installed but better-sqlite3 has no
 * build for it yet (a fresh checkout), that build is made first (`npm run native:electron`), since
 * the Node build in node_modules cannot load in Electron. Progress goes to `print`.
 */
export async function prepareDesktop(print: (line: string) => void): Promise<DesktopAvailability> {
  const found = findElectronBinary();
  if ('reason' in found) return { available: false, reason: found.reason };
  if (!existsSync(SHELL_ENTRY)) return { available: false, reason: 'this build has no desktop shell' };
  const display = missingDisplayReason();
  if (display) return { available: false, reason: display };
  const native = await ensureElectronNativeBuild(print);
  if (native) return { available: false, reason: native };
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

/**
 * On Linux and the BSDs a window needs an X11 or Wayland display: without one (an SSH session, a
 * server) the app would only fail, so the host starts headless instead. macOS and Windows always
 * have their desktop.
 */
export function missingDisplayReason(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (platform === 'darwin' || platform === 'win32') return undefined;
  if (env['DISPLAY'] || env['WAYLAND_DISPLAY']) return undefined;
  return 'no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)';
}

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Builds better-sqlite3 for the installed Electron if needed; the reason it could not, or undefined. */
async function ensureElectronNativeBuild(print: (line: string) => void): Promise<string | undefined> {
  const version = installedElectronVersion();
  if (version === undefined) return "Electron is not installed (no 'electron' package)";
  if (hasElectronNativeBuild(PROJECT_ROOT, version)) return undefined;
  print(`Building better-sqlite3 for Electron ${version} (first start only)…`);
  try {
    // Loaded only here: build tooling, absent from the packaged app.
    const { buildNative, parseOptions } = await import('../packaging/build-native.js');
    await buildNative(parseOptions(['--skip-if-built']), print);
    return undefined;
  } catch (err) {
    return `better-sqlite3 could not be built for Electron ${version} (${(err as Error).message})`;
  }
}
