import { existsSync } from 'node:fs';
import { dataDirLayout, defaultDataDir } from '../core/config/data-dir.js';
import { openDatabase } from '../core/store/database.js';
import { UI_LINK_TTL_MS, UiLoginStore } from '../core/store/ui-login-store.js';
import type { UiLinkCommand } from './args.js';

/** True while process `pid` exists (signal 0 only asks; EPERM means it exists but is not ours). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `agent-host ui-link`: a fresh one-time link to the desk UI of the host running with this data
 * folder, for another browser (or after the first one lost its session), without a restart.
 */
export function runUiLink(command: UiLinkCommand, print: (line: string) => void, printError: (line: string) => void): number {
  const layout = dataDirLayout(command.dataDir ?? defaultDataDir());
  const notRunning = `agent-host: error: Agent Host is not running with the data folder ${layout.root}; start it (agent-host --headless prints a link)`;
  if (!existsSync(layout.database)) {
    printError(notRunning);
    return 1;
  }
  const db = openDatabase(layout.database);
  try {
    const logins = new UiLoginStore(db);
    const presence = logins.presence();
    if (!presence || !isAlive(presence.pid)) {
      printError(notRunning);
      return 1;
    }
    print(`${presence.control_url}/?token=${logins.mint()}`);
    print(`Open it in a browser on this machine within ${UI_LINK_TTL_MS / 60_000} minutes; it works once.`);
    return 0;
  } finally {
    db.close();
  }
}
