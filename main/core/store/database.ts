import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations.js';

export type Db = Database.Database;

export class DatabaseTooNewError extends Error {
  readonly code = 'DB_TOO_NEW';
  constructor(file: string, found: number, known: number) {
    super(
      `${file} has schema version ${found}, but this build of Agent Host knows only up to ${known}: ` +
        'it was written by a newer version. Update Agent Host, or point --data-dir elsewhere.',
    );
  }
}

export interface OpenDatabaseOptions {
  /** Path to a better-sqlite3 binary, so a Node build and an Electron build can live side by side. */
  nativeBinding?: string;
  migrations?: readonly Migration[];
}

/** Opens (creating if needed) the store at `file`, in WAL mode, migrated to the newest schema. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, file, options.migrations ?? MIGRATIONS);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function migrate(db: Db, file: string, migrations: readonly Migration[]): void {
  const known = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  const current = schemaVersion(db);
  if (current > known) throw new DatabaseTooNewError(file, current, known);
  const pending = [...migrations].filter((m) => m.version > current).sort((a, b) => a.version - b.version);
  for (const migration of pending) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
