import { accessSync, constants, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_NAME = 'Agent Host';

/** The files and folders of one data dir, as DESIGN.md lays it out. */
export interface DataDirLayout {
  root: string;
  database: string;
  artifacts: string;
  plugins: string;
  config: string;
}

export function dataDirLayout(root: string): DataDirLayout {
  const abs = resolve(root);
  return {
    root: abs,
    database: join(abs, 'agent-host.db'),
    artifacts: join(abs, 'artifacts'),
    plugins: join(abs, 'plugins'),
    config: join(abs, 'config.json'),
  };
}

/**
 * The folder Electron uses as this app's userData on each platform, so the desktop app and
 * `agent-host --headless` share tasks, settings and plugins by default.
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const home = homedir();
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME);
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), APP_NAME);
}

export class DataDirError extends Error {
  readonly code = 'DATA_DIR_UNUSABLE';
}

/** Creates the data dir's folders and checks they are writable, with a clear error if not. */
export function prepareDataDir(layout: DataDirLayout): void {
  for (const dir of [layout.root, layout.artifacts, layout.plugins]) {
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
    } catch (err) {
      throw new DataDirError(`data folder ${dir} is not usable: ${(err as Error).message}`);
    }
  }
}
