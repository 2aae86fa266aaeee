/**
 * Numbered schema migrations. Each runs once, in order, inside one transaction with the bump of
 * `PRAGMA user_version`; never edit a shipped migration, add the next number.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks, events, artifacts, agents, tokens',
    sql: `
      CREATE TABLE agents (
        slug        TEXT PRIMARY KEY,
        agent_id    TEXT NOT NULL UNIQUE,
        created_at  TEXT NOT NULL
      );

      CREATE TABLE tasks (
        seq                 INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id             TEXT NOT NULL UNIQUE,
        agent_slug          TEXT NOT NULL,
        agent_id            TEXT NOT NULL,
        status              TEXT NOT NULL CHECK (status IN
                              ('SUBMITTED','WORKING','INPUT_REQUIRED','COMPLETED','FAILED','CANCELLED')),
        input               TEXT NOT NULL,
        output              TEXT,
        prompt              TEXT,
        prompt_schema       TEXT,
        error_code          TEXT,
        error_message       TEXT,
        notification_config TEXT,
        idempotency_key     TEXT,
        request_hash        TEXT,
        created_at          TEXT NOT NULL,
        updated_at          TEXT NOT NULL,
        CHECK (status <> 'FAILED' OR (error_code IS NOT NULL AND error_message IS NOT NULL))
      );
      CREATE UNIQUE INDEX tasks_idempotency ON tasks (agent_slug, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
      CREATE INDEX tasks_agent_status ON tasks (agent_slug, status, seq);
      CREATE INDEX tasks_status ON tasks (status, seq);

      CREATE TABLE task_events (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id     TEXT NOT NULL REFERENCES tasks (task_id),
        kind        TEXT NOT NULL CHECK (kind IN ('status','log','artifact','prompt','answer')),
        data        TEXT NOT NULL,
        created_at  TEXT NOT NULL
      );
      CREATE INDEX task_events_task ON task_events (task_id, id);

      CREATE TABLE artifacts (
        artifact_id  TEXT PRIMARY KEY,
        task_id      TEXT NOT NULL REFERENCES tasks (task_id),
        type         TEXT NOT NULL CHECK (type IN ('file','log','url','text','json')),
        content      TEXT,
        file_path    TEXT,
        size         INTEGER,
        filename     TEXT,
        mime_type    TEXT,
        description  TEXT,
        created_at   TEXT NOT NULL,
        CHECK (type <> 'file' OR (file_path IS NOT NULL AND filename IS NOT NULL AND mime_type IS NOT NULL))
      );
      CREATE INDEX artifacts_task ON artifacts (task_id, created_at);

      CREATE TABLE api_tokens (
        token_id     TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        token_hash   TEXT NOT NULL UNIQUE,
        created_at   TEXT NOT NULL,
        last_used_at TEXT
      );
    `,
  },
];
