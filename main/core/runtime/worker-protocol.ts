/**
 * The IPC messages between the host and one agent worker process, and their validation. The
 * channel uses Node's `json` serialisation, so whatever arrives is plain JSON; what is checked
 * here is shape and size. Both sides parse what they receive: the worker shares its process
 * with plugin code, which can call `process.send` itself, so the host trusts nothing it gets.
 */
import type { ArtifactType, JsonObject, LogLevel } from '../../shared/protocol.js';
import { LOG_LEVELS } from '../../shared/protocol.js';

export const LIMITS = {
  /** Characters of one log line (from ctx.log or the plugin's stdout/stderr); longer is cut. */
  logMessageChars: 64 * 1024,
  /** Log entries in one `logs` message. */
  logBatchEntries: 1000,
  promptChars: 64 * 1024,
  /** Characters of a prompt's JSON Schema, serialised. */
  promptSchemaChars: 256 * 1024,
  /** Characters of a task's output, serialised: big data belongs in artifacts. */
  outputChars: 4 * 1024 * 1024,
  /** Characters of a non-file artifact's content. */
  inlineArtifactChars: 16 * 1024 * 1024,
  errorCodeChars: 64,
  errorMessageChars: 8 * 1024,
  descriptionChars: 4 * 1024,
  mimeTypeChars: 255,
  fileNameChars: 1024,
  urlChars: 8 * 1024,
} as const;

/** A plugin error's own `code` is used only when it looks like one of ours. */
export const ERROR_CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$/;

export type AbortReason = 'cancel' | 'timeout' | 'shutdown';
export const ABORT_REASONS: readonly AbortReason[] = ['cancel', 'timeout', 'shutdown'];

// ---- host → worker -------------------------------------------------------------------------

export interface StartMessage {
  type: 'start';
  taskId: string;
  input: JsonObject;
  /** file: URL of the plugin's entry module. */
  entryUrl: string;
  artifactDir: string;
  /** Answers already given; the first requestInput calls resolve with them without asking. */
  answers: JsonObject[];
}
export interface AbortMessage {
  type: 'abort';
  reason: AbortReason;
}
export interface AnswerMessage {
  type: 'answer';
  requestId: number;
  answer: JsonObject;
}
/** The host refused a request-input (e.g. its schema does not compile). */
export interface InputErrorMessage {
  type: 'input-error';
  requestId: number;
  message: string;
}
export type ArtifactAckMessage =
  | { type: 'artifact-ack'; requestId: number; artifactId: string }
  | { type: 'artifact-ack'; requestId: number; error: string };

export type HostMessage = StartMessage | AbortMessage | AnswerMessage | InputErrorMessage | ArtifactAckMessage;

// ---- worker → host -------------------------------------------------------------------------

export interface WireLogEntry {
  level: LogLevel;
  message: string;
  timestamp?: string;
}

export type WireArtifact =
  | {
      type: 'file';
      /** The safe name of a file the worker wrote into the task's artifact folder. */
      file: string;
      mimeType?: string;
      description?: string;
    }
  | {
      type: Exclude<ArtifactType, 'file'>;
      content: string;
      description?: string;
    };

/** The worker is listening; the host answers with `start`. */
export interface ReadyMessage {
  type: 'ready';
}
export interface LogsMessage {
  type: 'logs';
  entries: WireLogEntry[];
}
export interface ArtifactMessage {
  type: 'artifact';
  requestId: number;
  artifact: WireArtifact;
}
export interface RequestInputMessage {
  type: 'request-input';
  requestId: number;
  prompt: string;
  schema?: JsonObject;
}
export interface ResultMessage {
  type: 'result';
  /** What run() returned; the host checks that it is a JSON object matching output_schema. */
  output: unknown;
}
export interface FailureMessage {
  type: 'failure';
  code: string;
  message: string;
}
/** The plugin's entry could not be imported or has no default export function. */
export interface StartFailedMessage {
  type: 'start-failed';
  message: string;
}

export type WorkerMessage =
  | ReadyMessage
  | LogsMessage
  | ArtifactMessage
  | RequestInputMessage
  | ResultMessage
  | FailureMessage
  | StartFailedMessage;

export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

// ---- helpers -------------------------------------------------------------------------------

export function isPlainObject(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Cuts `text` to `max` characters (never inside a surrogate pair) and says how much was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [${text.length - end} more characters cut]`;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** Length of `value` as JSON, or undefined when it cannot be serialised. */
export function jsonLength(value: unknown): number | undefined {
  try {
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}

function fail<T>(reason: string): Parsed<T> {
  return { ok: false, reason };
}

function optionalString(obj: JsonObject, key: string, max: number): string | undefined | false {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > max) return false;
  return value;
}

// ---- worker → host parsing -----------------------------------------------------------------

function parseLogs(obj: JsonObject): Parsed<LogsMessage> {
  const { entries } = obj;
  if (!Array.isArray(entries)) return fail('logs.entries is not an array');
  if (entries.length > LIMITS.logBatchEntries) {
    return fail(`logs message has ${entries.length} entries; at most ${LIMITS.logBatchEntries}`);
  }
  const out: WireLogEntry[] = [];
  for (const entry of entries) {
    if (!isPlainObject(entry)) return fail('log entry is not an object');
    if (!isLogLevel(entry.level)) return fail(`log level ${JSON.stringify(entry.level)} is not one of ${LOG_LEVELS.join(', ')}`);
    if (typeof entry.message !== 'string') return fail('log message is not a string');
    // An over-long line is the plugin's doing, not corruption: cut it, keep the rest.
    const parsed: WireLogEntry = { level: entry.level, message: truncate(entry.message, LIMITS.logMessageChars) };
    if (typeof entry.timestamp === 'string' && ISO_TIMESTAMP.test(entry.timestamp)) parsed.timestamp = entry.timestamp;
    out.push(parsed);
  }
  return { ok: true, message: { type: 'logs', entries: out } };
}

function parseArtifact(obj: JsonObject): Parsed<ArtifactMessage> {
  if (!isRequestId(obj.requestId)) return fail('artifact.requestId is not a request id');
  const spec = obj.artifact;
  if (!isPlainObject(spec)) return fail('artifact.artifact is not an object');
  const description = optionalString(spec, 'description', LIMITS.descriptionChars);
  if (description === false) return fail('artifact description is not a string of reasonable length');
  if (spec.type === 'file') {
    if (typeof spec.file !== 'string' || spec.file === '' || spec.file.length > LIMITS.fileNameChars) {
      return fail('file artifact has no file name');
    }
    const mimeType = optionalString(spec, 'mimeType', LIMITS.mimeTypeChars);
    if (mimeType === false) return fail('file artifact mimeType is not a string of reasonable length');
    const artifact: WireArtifact = { type: 'file', file: spec.file };
    if (mimeType !== undefined) artifact.mimeType = mimeType;
    if (description !== undefined) artifact.description = description;
    return { ok: true, message: { type: 'artifact', requestId: obj.requestId, artifact } };
  }
  if (spec.type !== 'text' && spec.type !== 'log' && spec.type !== 'url' && spec.type !== 'json') {
    return fail(`artifact type ${JSON.stringify(spec.type)} is unknown`);
  }
  if (typeof spec.content !== 'string') return fail('artifact content is not a string');
  if (spec.content.length > LIMITS.inlineArtifactChars) return fail('artifact content is too large');
  const artifact: WireArtifact = { type: spec.type, content: spec.content };
  if (description !== undefined) artifact.description = description;
  return { ok: true, message: { type: 'artifact', requestId: obj.requestId, artifact } };
}

function parseRequestInput(obj: JsonObject): Parsed<RequestInputMessage> {
  if (!isRequestId(obj.requestId)) return fail('request-input.requestId is not a request id');
  if (typeof obj.prompt !== 'string' || obj.prompt.trim() === '') return fail('request-input.prompt is not a non-empty string');
  if (obj.prompt.length > LIMITS.promptChars) return fail('request-input.prompt is too long');
  const message: RequestInputMessage = { type: 'request-input', requestId: obj.requestId, prompt: obj.prompt };
  if (obj.schema !== undefined) {
    if (!isPlainObject(obj.schema)) return fail('request-input.schema is not an object');
    const length = jsonLength(obj.schema);
    if (length === undefined || length > LIMITS.promptSchemaChars) return fail('request-input.schema is too large');
    message.schema = obj.schema;
  }
  return { ok: true, message };
}

/** Validates a message from a worker. A failed parse means the worker cannot be trusted further. */
export function parseWorkerMessage(raw: unknown): Parsed<WorkerMessage> {
  if (!isPlainObject(raw)) return fail('message is not an object');
  switch (raw.type) {
    case 'ready':
      return { ok: true, message: { type: 'ready' } };
    case 'logs':
      return parseLogs(raw);
    case 'artifact':
      return parseArtifact(raw);
    case 'request-input':
      return parseRequestInput(raw);
    case 'result':
      return { ok: true, message: { type: 'result', output: raw.output } };
    case 'failure': {
      if (typeof raw.code !== 'string' || raw.code.length > LIMITS.errorCodeChars) return fail('failure.code is not a short string');
      if (typeof raw.message !== 'string') return fail('failure.message is not a string');
      return {
        ok: true,
        message: { type: 'failure', code: raw.code, message: truncate(raw.message, LIMITS.errorMessageChars) },
      };
    }
    case 'start-failed':
      if (typeof raw.message !== 'string') return fail('start-failed.message is not a string');
      return { ok: true, message: { type: 'start-failed', message: truncate(raw.message, LIMITS.errorMessageChars) } };
    default:
      return fail(`unknown message type ${JSON.stringify(truncate(String(raw.type), 64))}`);
  }
}

// ---- host → worker parsing -----------------------------------------------------------------

/** Validates a message from the host (the worker's side of the same contract). */
export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  if (!isPlainObject(raw)) return fail('message is not an object');
  switch (raw.type) {
    case 'start': {
      const { taskId, input, entryUrl, artifactDir, answers } = raw;
      if (typeof taskId !== 'string' || !UUID_LIKE.test(taskId)) return fail('start.taskId is not a task id');
      if (!isPlainObject(input)) return fail('start.input is not an object');
      if (typeof entryUrl !== 'string' || !entryUrl.startsWith('file:')) return fail('start.entryUrl is not a file: URL');
      if (typeof artifactDir !== 'string' || artifactDir === '') return fail('start.artifactDir is not a path');
      if (!Array.isArray(answers) || !answers.every(isPlainObject)) return fail('start.answers is not a list of objects');
      return { ok: true, message: { type: 'start', taskId, input, entryUrl, artifactDir, answers } };
    }
    case 'abort':
      if (!ABORT_REASONS.includes(raw.reason as AbortReason)) return fail('abort.reason is unknown');
      return { ok: true, message: { type: 'abort', reason: raw.reason as AbortReason } };
    case 'answer':
      if (!isRequestId(raw.requestId) || !isPlainObject(raw.answer)) return fail('answer is malformed');
      return { ok: true, message: { type: 'answer', requestId: raw.requestId, answer: raw.answer } };
    case 'input-error':
      if (!isRequestId(raw.requestId) || typeof raw.message !== 'string') return fail('input-error is malformed');
      return { ok: true, message: { type: 'input-error', requestId: raw.requestId, message: raw.message } };
    case 'artifact-ack': {
      if (!isRequestId(raw.requestId)) return fail('artifact-ack.requestId is not a request id');
      if (typeof raw.artifactId === 'string') {
        return { ok: true, message: { type: 'artifact-ack', requestId: raw.requestId, artifactId: raw.artifactId } };
      }
      if (typeof raw.error === 'string') {
        return { ok: true, message: { type: 'artifact-ack', requestId: raw.requestId, error: raw.error } };
      }
      return fail('artifact-ack has neither artifactId nor error');
    }
    default:
      return fail(`unknown message type ${JSON.stringify(truncate(String(raw.type), 64))}`);
  }
}
