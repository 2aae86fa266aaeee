import { mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pino, type Logger, type Level } from 'pino';

export type { Logger };

export const LOG_LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/** A log file past this size is moved to `<name>.1` at the next start (one old file is kept). */
const LOG_FILE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * JSON lines on stderr, so stdout stays free for the CLI's human-readable lines; with `file`, also
 * appended there (the desktop app has no terminal: its log lives in the data folder).
 */
export function createLogger(level: Level | 'silent' = 'info', options: { file?: string } = {}): Logger {
  const stderr = pino.destination({ dest: 2, sync: false });
  if (!options.file) return pino({ level, base: { app: 'agent-host' } }, stderr);
  mkdirSync(dirname(options.file), { recursive: true });
  try {
    if (statSync(options.file).size > LOG_FILE_MAX_BYTES) renameSync(options.file, `${options.file}.1`);
  } catch {
    // No log file yet.
  }
  const file = pino.destination({ dest: options.file, sync: false, append: true });
  return pino({ level, base: { app: 'agent-host' } }, pino.multistream([{ stream: stderr, level: 'trace' }, { stream: file, level: 'trace' }]));
}
