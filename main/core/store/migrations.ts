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
  {
    version: 2,
    name: 'webhook outbox: deliveries and their attempts',
    // Timestamps are the protocol's ISO format, whose text order is time order, so `next_attempt_at`
    // compares as text. The partial indexes serve the notifier's "what is due" look-ups only.
    sql: `
      CREATE TABLE deliveries (
        id                INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id           TEXT NOT NULL REFERENCES tasks (task_id),
        status_event_id   INTEGER NOT NULL REFERENCES task_events (id),
        endpoint_url      TEXT NOT NULL,
        auth_header       TEXT,
        signing_secret    TEXT,
        webhook_id        TEXT NOT NULL UNIQUE,
        payload           TEXT NOT NULL,
        state             TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','delivered','dead')),
        attempts          INTEGER NOT NULL DEFAULT 0,
        manual_redeliver  INTEGER NOT NULL DEFAULT 0 CHECK (manual_redeliver IN (0, 1)),
        next_attempt_at   TEXT,
        last_status_code  INTEGER,
        last_error        TEXT,
        created_at        TEXT NOT NULL,
        delivered_at      TEXT,
        dead_at           TEXT,
        UNIQUE (status_event_id, endpoint_url),
        CHECK (state <> 'pending' OR next_attempt_at IS NOT NULL)
      );
      CREATE INDEX deliveries_pending_due ON deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX deliveries_pending_endpoint ON deliveries (endpoint_url, next_attempt_at) WHERE state = 'pending';
      CREATE INDEX deliveries_task ON deliveries (task_id, endpoint_url, id);
      CREATE INDEX deliveries_state ON deliveries (state, id);

      CREATE TABLE delivery_attempts (
        delivery_id  INTEGER NOT NULL REFERENCES deliveries (id),
        attempt      INTEGER NOT NULL,
        started_at   TEXT NOT NULL,
        finished_at  TEXT,
        status_code  INTEGER,
        error        TEXT,
        duration_ms  INTEGER,
        PRIMARY KEY (delivery_id, attempt)
      );
    `,
  },
  {
    version: 3,
    name: 'control API: task search text, retention and agent paging indexes',
    // task_search holds the searchable text of each task (id, the input's first 2,000 characters,
    // prompt, error), so the UI's substring search scans small rows whatever the size of outputs
    // and inputs; triggers keep it in step with tasks. The partial index finds finished tasks by
    // age for the retention job without touching open ones; tasks_agent_seq pages one agent's tasks
    // newest first without sorting them all.
    sql: `
      CREATE TABLE task_search (
        seq   INTEGER PRIMARY KEY REFERENCES tasks (seq) ON DELETE CASCADE,
        text  TEXT NOT NULL
      );
      INSERT INTO task_search (seq, text)
        SELECT seq, task_id || char(10) || substr(input, 1, 2000) || char(10) || coalesce(prompt, '') || char(10) ||
                    coalesce(error_code, '') || char(10) || coalesce(error_message, '')
        FROM tasks;
      CREATE TRIGGER task_search_insert AFTER INSERT ON tasks BEGIN
        INSERT INTO task_search (seq, text) VALUES (new.seq,
          new.task_id || char(10) || substr(new.input, 1, 2000) || char(10) || coalesce(new.prompt, '') || char(10) ||
          coalesce(new.error_code, '') || char(10) || coalesce(new.error_message, ''));
      END;
      CREATE TRIGGER task_search_update AFTER UPDATE OF prompt, error_code, error_message ON tasks
        WHEN old.prompt IS NOT new.prompt OR old.error_code IS NOT new.error_code
          OR old.error_message IS NOT new.error_message
      BEGIN
        UPDATE task_search SET text =
          new.task_id || char(10) || substr(new.input, 1, 2000) || char(10) || coalesce(new.prompt, '') || char(10) ||
          coalesce(new.error_code, '') || char(10) || coalesce(new.error_message, '')
        WHERE seq = new.seq;
      END;
      CREATE INDEX tasks_finished_updated ON tasks (updated_at)
        WHERE status IN ('COMPLETED', 'FAILED', 'CANCELLED');
      CREATE INDEX tasks_agent_seq ON tasks (agent_slug, seq);
    `,
  },
  {
    version: 4,
    name: 'desk UI: login links minted by the command line, and the running host\'s address',
    // `agent-host ui-link` runs in another process than the host: it finds the running host's
    // control address in host_presence and leaves a one-time login token (hashed, short-lived) in
    // ui_login_tokens, which the host's control API consumes like its own.
    sql: `
      CREATE TABLE ui_login_tokens (
        token_hash  TEXT PRIMARY KEY,
        expires_at  TEXT NOT NULL
      );
      CREATE TABLE host_presence (
        id           INTEGER PRIMARY KEY CHECK (id = 1),
        pid          INTEGER NOT NULL,
        control_url  TEXT NOT NULL,
        started_at   TEXT NOT NULL
      );
    `,
  },
];
