import { ConfigError } from '../core/config/config-file.js';
import { DataDirError } from '../core/config/data-dir.js';
import { ListenError } from '../core/listen.js';
import { DatabaseTooNewError } from '../core/store/database.js';
import { UsageError } from '../cli/args.js';
import { NativeBindingMissingError } from './native-binding.js';

/** What the start-up error dialog says: a title, one sentence, and the detail to act on. */
export interface StartupFailure {
  kind: 'port-in-use' | 'listen-failed' | 'data-dir' | 'database-too-new' | 'config' | 'native-module' | 'usage' | 'unexpected';
  title: string;
  message: string;
  detail: string;
  /** Offer to show this folder (the data folder) in the file manager. */
  revealPath?: string;
}

/**
 * Turns what made the host fail to start into a dialog a person can act on, instead of a silent
 * exit: the port taken, a data folder that cannot be written, a database from a newer version.
 */
export function describeStartupFailure(err: unknown, dataDir: string): StartupFailure {
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof ListenError && err.code === 'EADDRINUSE') {
    return {
      kind: 'port-in-use',
      title: 'Port already in use',
      message: 'Agent Host cannot start: its port is taken by another program.',
      detail: `${capitalize(text)}.\n\nQuit the other program (another Agent Host, perhaps a headless one), or set another port in config.json in ${dataDir}.`,
      revealPath: dataDir,
    };
  }
  if (err instanceof ListenError) {
    return { kind: 'listen-failed', title: 'Cannot listen', message: 'Agent Host cannot start its server.', detail: `${capitalize(text)}.`, revealPath: dataDir };
  }
  if (err instanceof DataDirError) {
    return {
      kind: 'data-dir',
      title: 'Data folder not writable',
      message: 'Agent Host cannot write to its data folder.',
      detail: `${capitalize(text)}.\n\nCheck the folder's permissions and free space, or start Agent Host with --data-dir pointing elsewhere.`,
    };
  }
  if (err instanceof DatabaseTooNewError) {
    return {
      kind: 'database-too-new',
      title: 'Data from a newer version',
      message: 'This data folder was written by a newer Agent Host.',
      detail: `${text}\n\nNothing was changed. Install the newer version again, or use another data folder.`,
      revealPath: dataDir,
    };
  }
  if (err instanceof ConfigError) {
    return {
      kind: 'config',
      title: 'Settings file not valid',
      message: 'config.json cannot be used; nothing was changed.',
      detail: `${text}\n\nFix or remove the setting named above, then start Agent Host again.`,
      revealPath: dataDir,
    };
  }
  if (err instanceof NativeBindingMissingError) {
    return { kind: 'native-module', title: 'Database module missing', message: 'This build of Agent Host is incomplete.', detail: text };
  }
  if (err instanceof UsageError) {
    return { kind: 'usage', title: 'Bad command line', message: 'Agent Host was started with options it does not understand.', detail: text };
  }
  return {
    kind: 'unexpected',
    title: 'Agent Host could not start',
    message: 'An unexpected error stopped Agent Host from starting.',
    detail: err instanceof Error ? (err.stack ?? text) : text,
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
