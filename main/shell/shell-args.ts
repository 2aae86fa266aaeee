import { parseCommand, type HostCommand } from '../cli/args.js';

/** The desktop app's command line: the host's own flags, plus `--hidden` (start in the tray). */
export interface ShellCommand {
  host: HostCommand;
  /** Start with the window closed (start at login uses it). */
  hidden: boolean;
  /** Arguments left out: Chromium's and Electron's own switches, which are not ours to judge. */
  ignored: string[];
}

const VALUE_FLAGS = new Set(['--host', '--port', '--control-port', '--data-dir', '--plugins', '--log-level']);

/**
 * Picks the host's flags out of the app's arguments and validates them with the CLI's own parser
 * (same rules, same messages); a bad value throws its UsageError. `--headless` makes no sense
 * here and is ignored, like the switches Chromium reads itself.
 */
export function parseShellArgs(argv: readonly string[]): ShellCommand {
  const kept: string[] = [];
  const ignored: string[] = [];
  let hidden = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const [name = '', inline] = arg.split(/=(.*)/s, 2);
    if (arg === '--hidden') {
      hidden = true;
    } else if (VALUE_FLAGS.has(name)) {
      if (inline !== undefined) {
        kept.push(name, inline);
      } else {
        // A value flag at the very end is passed on as is, so the parser reports it as missing.
        kept.push(name, ...(i + 1 < argv.length ? [argv[i + 1] ?? ''] : []));
        i += 1;
      }
    } else {
      ignored.push(arg);
    }
  }
  const command = parseCommand(['--headless', ...kept]);
  if (command.kind !== 'host') throw new Error(`unexpected command ${command.kind}`);
  return { host: command, hidden, ignored };
}
