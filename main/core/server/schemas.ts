/**
 * JSON Schemas of the A2A server's requests and responses. Request schemas are enforced by
 * Fastify's Ajv (configured in a2a-server.ts not to coerce types or silently drop unknown
 * keys); response schemas drive fast-json-stringify, which serializes ONLY the properties
 * listed, so every free-form object (task input/output/prompt_schema, card schemas) says
 * `additionalProperties: true`, and the unit tests compare responses with the store's data.
 */
import { ARTIFACT_TYPES, TASK_STATUSES } from '../../shared/protocol.js';
import { SIGNING_SECRET_PATTERN } from '../notify/signing.js';

const string = { type: 'string' } as const;
/** Any JSON object, serialized as is. */
const freeObject = { type: 'object', additionalProperties: true } as const;

// ---- Responses ----------------------------------------------------------------------------

export const errorResponseSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: string,
        message: string,
        details: { type: 'array', items: {} },
      },
    },
  },
} as const;

/**
 * Error responses a route can give: its own statuses plus what every route can answer
 * (401 token, 403 Host/Origin, 500, 503 while closing). These document the shape; error
 * bodies are sent already serialized (errors.ts), so no schema can ever reshape them.
 */
export function errorResponses(...statuses: number[]): Record<string, typeof errorResponseSchema> {
  const all = new Set([...statuses, 401, 403, 500, 503]);
  return Object.fromEntries([...all].sort().map((status) => [String(status), errorResponseSchema]));
}

export const taskSchema = {
  type: 'object',
  required: ['task_id', 'agent_id', 'status', 'input', 'created_at', 'updated_at'],
  properties: {
    task_id: string,
    agent_id: string,
    status: { type: 'string', enum: [...TASK_STATUSES] },
    input: freeObject,
    output: freeObject,
    prompt: string,
    prompt_schema: freeObject,
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: string, message: string },
    },
    created_at: string,
    updated_at: string,
  },
} as const;

export const artifactSchema = {
  type: 'object',
  required: ['artifact_id', 'task_id', 'type', 'content', 'metadata'],
  properties: {
    artifact_id: string,
    task_id: string,
    type: { type: 'string', enum: [...ARTIFACT_TYPES] },
    content: string,
    metadata: {
      type: 'object',
      required: ['created_at'],
      properties: {
        created_at: string,
        filename: string,
        mime_type: string,
        description: string,
        size: { type: 'integer' },
      },
    },
  },
} as const;

export const artifactListSchema = {
  type: 'object',
  required: ['artifacts'],
  properties: { artifacts: { type: 'array', items: artifactSchema } },
} as const;

/**
 * The card is built by the agents module (`cardFor`), which owns its content: fields beyond
 * the protocol's are passed through rather than dropped here.
 */
export const agentCardSchema = {
  type: 'object',
  required: ['protocol_version', 'agent_id', 'display_name', 'description', 'capabilities', 'input_schema'],
  additionalProperties: true,
  properties: {
    protocol_version: string,
    agent_id: string,
    display_name: string,
    description: string,
    capabilities: { type: 'array', items: string },
    input_schema: freeObject,
    output_schema: freeObject,
    notification_config: {
      type: 'object',
      required: ['endpoint_url'],
      properties: { endpoint_url: string, auth_header: string },
    },
  },
} as const;

export const agentListSchema = {
  type: 'object',
  required: ['agents'],
  properties: {
    agents: {
      type: 'array',
      items: {
        type: 'object',
        required: ['slug', 'agent_id', 'display_name', 'url', 'card_url'],
        properties: { slug: string, agent_id: string, display_name: string, url: string, card_url: string },
      },
    },
  },
} as const;

/** Artifact content is bytes or text, never serialized from an object. */
export const artifactContentSchema = { description: 'The artifact content (file bytes or text)' } as const;

// ---- Requests -----------------------------------------------------------------------------

export const agentParamsSchema = {
  type: 'object',
  required: ['slug'],
  properties: { slug: string },
} as const;

/** Any id string is accepted: a malformed id is simply unknown (404), like another agent's. */
export const taskParamsSchema = {
  type: 'object',
  required: ['slug', 'id'],
  properties: { slug: string, id: string },
} as const;

export const artifactParamsSchema = taskParamsSchema;

/** Idempotency-Key: 1–255 visible ASCII characters. */
export const createTaskHeadersSchema = {
  type: 'object',
  properties: {
    'idempotency-key': { type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' },
  },
} as const;

/** One HTTP header line, `Name: value`: a token name, then a visible, single-line value. */
const HEADER_LINE = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[ \\t]*[\\x21-\\x7E](?:[ \\t\\x21-\\x7E]*[\\x21-\\x7E])?$";

export const notificationConfigSchema = {
  type: 'object',
  required: ['endpoint_url'],
  additionalProperties: false,
  properties: {
    endpoint_url: {
      type: 'string',
      format: 'uri',
      maxLength: 2048,
      // http(s) only: the notifier must never be pointed at file:, data: or other schemes.
      pattern: '^[hH][tT][tT][pP][sS]?://[^/?#\\s]+(?:[/?#]\\S*)?$',
    },
    auth_header: { type: 'string', maxLength: 8192, pattern: HEADER_LINE },
    // Extension: a Standard Webhooks secret (`whsec_<base64 key>`) to sign this task's notifications.
    signing_secret: { type: 'string', maxLength: 1024, pattern: SIGNING_SECRET_PATTERN },
  },
} as const;

export const createTaskBodySchema = {
  type: 'object',
  required: ['input'],
  additionalProperties: false,
  properties: {
    input: { type: 'object' },
    notification_config: notificationConfigSchema,
  },
} as const;

export const answerBodySchema = {
  type: 'object',
  required: ['input'],
  additionalProperties: false,
  properties: { input: { type: 'object' } },
} as const;

/** Cancel takes no body; `{}` (or an empty body, see emptyBodyAsObject) is accepted. */
export const cancelBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {},
} as const;
