/**
 * The control API: what the renderer (the desk UI) uses, served by the host's second listener
 * (loopback only, token-protected). One contract for both sides: the host core implements it,
 * the renderer calls it. All paths are under `/api`; bodies are JSON; errors are `ErrorBody`.
 */
import type { AgentCard, Artifact, JsonObject, LogLevel, NotificationConfig, Task, TaskEvent, TaskStatus } from './protocol.js';

// ---- session -----------------------------------------------------------------------------------

/**
 * `POST /api/session` `{token}`: exchanges the one-time token from the URL the host printed (or
 * the desktop shell's token) for an HttpOnly, SameSite=Strict session cookie, and answers 200 with
 * the SessionInfo. 401 if the token is unknown or already used. `GET /api/session` answers 200 with
 * a session, 401 without.
 */
export interface SessionRequest {
  token: string;
}
export interface SessionInfo {
  version: string;
  /** `http://host:port` of the A2A server, for the agents' base URLs. */
  a2a_url: string;
  data_dir: string;
  /** True in the Electron window (native helpers available through preload). */
  desktop: boolean;
}

// ---- tasks -------------------------------------------------------------------------------------

/** One row of the task list: small, so 100,000 rows page quickly. */
export interface TaskSummary {
  task_id: string;
  agent_slug: string;
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  /** The prompt while INPUT_REQUIRED. */
  prompt?: string;
  error_code?: string;
  /** First characters of the input, as JSON, for the list. */
  input_preview: string;
}

/**
 * `GET /api/tasks?status=&agent=&q=&limit=&cursor=`: newest first. `status` and `agent` may repeat
 * (any of); `q` searches task id, input, prompt and error message; `limit` 1–500 (default 100);
 * `cursor` is the `next_cursor` of the previous page (keyset paging: stable while rows arrive).
 */
export interface TaskListQuery {
  status?: TaskStatus[];
  agent?: string[];
  q?: string;
  limit?: number;
  cursor?: string;
}
export interface TaskListPage {
  tasks: TaskSummary[];
  /** Absent on the last page. */
  next_cursor?: string;
  /** Rows matching the filters (without the cursor). */
  total: number;
}

/** `GET /api/tasks/{id}`: everything the detail view shows. */
export interface TaskDetail {
  task: Task;
  agent_slug: string;
  /** The agent's A2A base URL. */
  agent_url: string;
  artifacts: Artifact[];
  deliveries: DeliverySummary[];
  /** The newest events (timeline and logs), oldest first; older ones via the events endpoint. */
  events: TaskEvent[];
  /** True when older events exist before `events[0]`. */
  more_events_before: boolean;
}

/** `GET /api/tasks/{id}/events?before=&after=&limit=`: the task's event log, oldest first. */
export interface TaskEventsPage {
  events: TaskEvent[];
  more_before: boolean;
}

/** `POST /api/tasks/{id}/answer` body; answers 200 with the Task. */
export interface AnswerRequest {
  input: JsonObject;
}
/** `POST /api/tasks/{id}/cancel`: 200 with the Task. `POST /api/agents/{slug}/tasks` `{input}`: 202 with the Task. */
export interface CreateTaskRequest {
  input: JsonObject;
}

/** `GET /api/inbox?limit=&cursor=`: tasks waiting for an answer, newest first, a page at a time. */
export interface InboxItem {
  task: Task;
  agent_slug: string;
  agent_display_name: string;
}
/** The body of `GET /api/inbox`. */
export interface InboxList {
  items: InboxItem[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  next_cursor?: string;
  /** Every task waiting for an answer (not only this page's). */
  total: number;
}
/** `GET /api/inbox` query: `limit` 1–200 (default 50). */
export interface InboxQuery {
  limit?: number;
  cursor?: string;
}

// ---- artifacts ---------------------------------------------------------------------------------

/** `GET /api/artifacts?agent=&task=&limit=&cursor=`: newest first. */
export interface ArtifactListItem {
  artifact: Artifact;
  agent_slug: string;
  task_status: TaskStatus;
  /** Absolute path on disk of a `file` artifact (desktop: reveal / open). */
  path?: string;
}
export interface ArtifactListPage {
  artifacts: ArtifactListItem[];
  next_cursor?: string;
}
/**
 * `GET /api/artifacts/{id}/content`: the bytes, with `Content-Security-Policy: sandbox`,
 * `X-Content-Type-Options: nosniff`; `?download=1` adds `Content-Disposition: attachment`.
 * The UI never renders it as HTML: text is shown as text, images through `<img>`.
 */

// ---- agents ------------------------------------------------------------------------------------

export interface AgentInfo {
  slug: string;
  display_name: string;
  description: string;
  agent_id: string;
  version: string;
  source: 'builtin' | 'data-dir' | 'cli';
  dir: string;
  enabled: boolean;
  concurrency: number;
  /** The manifest's own concurrency, before any config override. */
  manifest_concurrency: number;
  rerun_safe: boolean;
  base_url: string;
  card_url: string;
  card: AgentCard;
  /** As configured (the auth header's value masked, the signing secret never shown). */
  notification_config?: NotificationConfig;
  running: number;
  queued: number;
}
export interface PluginLoadErrorInfo {
  dir: string;
  slug?: string;
  reason: string;
}
/** `GET /api/agents`. */
export interface AgentList {
  agents: AgentInfo[];
  load_errors: PluginLoadErrorInfo[];
}
/**
 * `PATCH /api/agents/{slug}`: saved to config.json and applied at once; answers 200 with the
 * AgentInfo. `notification_config: null` removes it; an `auth_header` equal to the masked value
 * keeps the stored one; a `signing_secret` left out keeps the stored one, `""` removes it.
 */
export interface AgentSettingsPatch {
  enabled?: boolean;
  concurrency?: number;
  notification_config?: (NotificationConfig & { signing_secret?: string }) | null;
}

// ---- webhook deliveries ------------------------------------------------------------------------

export type DeliveryState = 'pending' | 'delivered' | 'dead';
export interface DeliverySummary {
  id: number;
  task_id: string;
  endpoint_url: string;
  webhook_id: string;
  /** The task status this notification reports. */
  status: TaskStatus;
  state: DeliveryState;
  attempts: number;
  next_attempt_at?: string;
  last_status_code?: number;
  last_error?: string;
  created_at: string;
  delivered_at?: string;
}
export interface DeliveryAttempt {
  attempt: number;
  started_at: string;
  duration_ms?: number;
  status_code?: number;
  error?: string;
}
/**
 * `GET /api/deliveries?task=&state=&limit=&cursor=`; `GET /api/deliveries/{id}/attempts`
 * (a DeliveryAttemptList); `POST /api/deliveries/{id}/redeliver` (200 with the DeliverySummary,
 * 409 while it is pending).
 */
export interface DeliveryListPage {
  deliveries: DeliverySummary[];
  next_cursor?: string;
}
export interface DeliveryAttemptList {
  attempts: DeliveryAttempt[];
}

// ---- tokens and settings -----------------------------------------------------------------------

/**
 * `GET /api/tokens` (an ApiTokenList), `POST /api/tokens` `{name}` (201, a CreatedApiTokenInfo: the
 * token is in the answer, once), `DELETE /api/tokens/{id}` (204).
 */
export interface ApiTokenInfo {
  token_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}
export interface CreatedApiTokenInfo extends ApiTokenInfo {
  token: string;
}
export interface ApiTokenList {
  tokens: ApiTokenInfo[];
}

/** `GET /api/settings`, `PATCH /api/settings` (saved to config.json). */
export interface SettingsInfo {
  server: { host: string; port: number; require_token: boolean; allowed_hosts: string[]; allowed_origins: string[] };
  /** Finished tasks (and their artifacts) older than this many days are deleted; 0 keeps everything. */
  retention_days: number;
  data_dir: string;
  /** Bind address and port changes take effect at the next start. */
  restart_required: boolean;
}
export interface SettingsPatch {
  server?: Partial<SettingsInfo['server']>;
  retention_days?: number;
}

// ---- intake ------------------------------------------------------------------------------------

/**
 * `GET /api/intake`, `PUT /api/intake` `{paused}` (an IntakePatch; answers 200 with the IntakeState,
 * saved to config.json so a restart keeps it). While paused the A2A server refuses new tasks with
 * 503 `INTAKE_PAUSED` and `Retry-After`; running tasks, answers and cancels go on as usual.
 */
export interface IntakeState {
  paused: boolean;
  /** When intake was paused (absent while accepting). */
  paused_at?: string;
}
export interface IntakePatch {
  paused: boolean;
}

// ---- live events -------------------------------------------------------------------------------

/**
 * `GET /api/events`: one SSE stream of every change, resumable with `Last-Event-ID`. Task events
 * carry the task_events id as their SSE id (replayed after a reconnect, none missed or repeated);
 * `changed` events (agents, settings, tokens, deliveries, intake) carry no id: the UI refetches that part.
 */
export type ControlEvent =
  | { type: 'task'; event: TaskEvent; agent_slug: string }
  | { type: 'changed'; what: 'agents' | 'settings' | 'tokens' | 'deliveries' | 'intake' }
  | { type: 'reset' };
/**
 * SSE `event:` names: `task`, `changed`, `reset` (the client is too far behind: refetch everything;
 * its SSE id is the newest event's, so the stream resumes from there), `ping` (data `{timestamp}`).
 * A new stream (no Last-Event-ID) starts with an id-only frame: the newest event id, so a reconnect
 * resumes from the moment it connected.
 */
export const CONTROL_EVENT_NAMES = ['task', 'changed', 'reset', 'ping'] as const;

export type { LogLevel };
