/**
 * The contract between Agent Host and a plugin agent. Plugin authors import these types
 * (`import type { AgentRun } from 'agent-host/plugin'`); the host's worker implements them.
 */
import type { ArtifactType, JsonObject, LogLevel } from './protocol.js';

/** `agent.json`, the manifest in a plugin's folder. */
export interface AgentManifest {
  /** URL-safe name: the agent's base URL is `/agents/{slug}`. */
  slug: string;
  display_name: string;
  description: string;
  capabilities: string[];
  input_schema: JsonObject;
  output_schema?: JsonObject;
  version: string;
  /** ES module, relative to the manifest, whose default export is `run(input, ctx)`. */
  entry: string;
  /** Tasks of this agent that may be WORKING at once (default 1). */
  concurrency?: number;
  /** Whether running the task again from the start is harmless (default false). */
  rerun_safe?: boolean;
  /** Optional fixed agent_id (a UUID); otherwise the host assigns one per slug and keeps it. */
  agent_id?: string;
  /** A task running longer than this fails with TIMEOUT (default: no limit). */
  timeout_ms?: number;
  /** Heap limit of the worker process in MiB (default 512). */
  memory_limit_mb?: number;
}

export interface ArtifactSpec {
  type: ArtifactType;
  /**
   * For `file`: the file's bytes (a string is written as UTF-8). For `json`: any JSON value or
   * a JSON string. For the other types: the content string.
   */
  content: unknown;
  /** Required for `file`: reduced to a safe name inside the task's artifact folder. */
  filename?: string;
  /** For `file`; guessed from the filename when missing. */
  mime_type?: string;
  description?: string;
}

export interface CreatedArtifact {
  artifact_id: string;
  type: ArtifactType;
  /** For `file` artifacts: where the file was written. */
  path?: string;
}

export interface AgentContext {
  readonly taskId: string;
  /** Fires when the task is cancelled, times out or the host shuts down. */
  readonly signal: AbortSignal;
  /** The task's own artifact folder, for plugins that write files themselves. */
  readonly artifactDir: string;
  log(level: LogLevel, message: string): void;
  createArtifact(spec: ArtifactSpec): Promise<CreatedArtifact>;
  /**
   * Moves the task to INPUT_REQUIRED with this prompt and resolves with the person's answer.
   * With a schema, the answer is validated against it before it reaches the plugin.
   */
  requestInput(prompt: string, schema?: JsonObject): Promise<JsonObject>;
}

/** The default export of a plugin's entry. Its return value is the task's output. */
export type AgentRun = (input: JsonObject, ctx: AgentContext) => Promise<JsonObject> | JsonObject;

/** Throw this (or any error with a string `code`) to fail the task with that code. */
export interface AgentFailure extends Error {
  code: string;
}
