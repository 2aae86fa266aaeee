import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Start at login on Linux: Electron's login-item API covers only macOS and Windows, so this writes
 * the freedesktop.org autostart entry that GNOME, KDE, XFCE and others read
 * (`$XDG_CONFIG_HOME/autostart/agent-host.desktop`). It exists only after the person turned the
 * setting on, and is removed when they turn it off.
 */

export const AUTOSTART_FILE_NAME = 'agent-host.desktop';

export function autostartFile(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const configHome = env['XDG_CONFIG_HOME'] && env['XDG_CONFIG_HOME'].startsWith('/') ? env['XDG_CONFIG_HOME'] : join(home, '.config');
  return join(configHome, 'autostart', AUTOSTART_FILE_NAME);
}

/** One argument of an `Exec=` line, quoted by the Desktop Entry Specification's rules. */
export function quoteExecArg(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  // Inside double quotes, `"`, `` ` ``, `$` and `\` are escaped with a backslash; then the whole
  // value is a desktop-entry string, whose own escape rule doubles every backslash again.
  const quoted = `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
  return quoted.replace(/\\/g, '\\\\');
}

export function autostartEntry(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Agent Host',
    'Comment=Expose local agents to orchestrators over A2A',
    `Exec=${command.map(quoteExecArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** On when the entry exists and is not switched off in it (a desktop's own settings may do that). */
export function isAutostartEnabled(file: string): boolean {
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  return !/^Hidden\s*=\s*true\s*$/m.test(text) && !/^X-GNOME-Autostart-enabled\s*=\s*false\s*$/m.test(text);
}

/** Writes (atomically) or removes the entry; `command` is the program and its arguments. */
export function setAutostart(file: string, enabled: boolean, command: readonly string[]): void {
  if (!enabled) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, autostartEntry(command), { mode: 0o644 });
  renameSync(temp, file);
}
