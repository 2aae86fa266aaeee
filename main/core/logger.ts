import { pino, type Logger, type Level } from 'pino';

export type { Logger };

export const LOG_LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/** JSON lines on stderr, so stdout stays free for the CLI's human-readable lines. */
export function createLogger(level: Level | 'silent' = 'info'): Logger {
  return pino({ level, base: { app: 'agent-host' } }, pino.destination({ dest: 2, sync: false }));
}
