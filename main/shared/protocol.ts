/**
 * A2A 1.0 wire types, word for word from the protocol reference, plus this host's documented
 * extensions. Imported by every layer (host core, shell, preload, renderer): no runtime imports.
 */

export const PROTOCOL_VERSION = '1.0' as const;

export const TASK_STATUSES = [
  'SUBMITTED',
  'WORKING',
  'INPUT_REQUIRED',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

export type JsonObject = { [key: string]: unknown };

export interface TaskError {
  code: string;
  message: string;
}

export interface NotificationConfig {
  endpoint_url: string;
  /** One header, written `Name: value`, sent with every notification. */
  auth_header?: string;
  /**
   * Extension: `whsec_<base64 key>`; notifications then carry a Standard Webhooks signature.
   * A credential: never shown in the AgentCard, an API response or a log.
   */
  signing_secret?: string;
}

export interface Task {
  task_id: string;
  agent_id: string;
  status: TaskStatus;
  input: JsonObject;
  output?: JsonObject;
  /** Present while the task is INPUT_REQUIRED. */
  prompt?: string;
  /** Extension: JSON Schema the answer must match, when the agent gave one. */
  prompt_schema?: JsonObject;
  error?: TaskError;
  created_at: string;
  updated_at: string;
}

export const ARTIFACT_TYPES = ['file', 'log', 'url', 'text', 'json'] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];

export interface ArtifactMetadata {
  created_at: string;
  filename?: string;
  mime_type?: string;
  description?: string;
  /** Extension: size in bytes of a `file` artifact. */
  size?: number;
}

export interface Artifact {
  artifact_id: string;
  task_id: string;
  type: ArtifactType;
  /** For `file`: an absolute URL to the content. Otherwise the content itself. */
  content: string;
  metadata: ArtifactMetadata;
}

export interface AgentCard {
  protocol_version: typeof PROTOCOL_VERSION;
  agent_id: string;
  display_name: string;
  description: string;
  capabilities: string[];
  input_schema: JsonObject;
  output_schema?: JsonObject;
  notification_config?: NotificationConfig;
}

export interface AgentListing {
  slug: string;
  agent_id: string;
  display_name: string;
  url: string;
  card_url: string;
}

/** Every 4xx/5xx body. `details` carries validation errors where there are any. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown[] };
}

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
export const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

/** One entry of a task's append-only event log; `id` is the SSE event id. */
export type TaskEventKind = 'status' | 'log' | 'artifact' | 'prompt' | 'answer';

export interface TaskEventDataMap {
  status: Task;
  log: { timestamp: string; level: LogLevel; message: string };
  artifact: { artifact_id: string };
  prompt: { timestamp: string; prompt: string; schema?: JsonObject };
  answer: { timestamp: string; input: JsonObject };
}

export interface TaskEvent<K extends TaskEventKind = TaskEventKind> {
  id: number;
  task_id: string;
  kind: K;
  data: TaskEventDataMap[K];
}
