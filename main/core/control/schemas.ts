/**
 * JSON Schemas of the control API (main/shared/control-api.ts). As on the A2A server, request
 * schemas are enforced without coercion and response schemas drive serialization, which writes
 * only listed properties: free-form objects say `additionalProperties: true`.
 */
import { DELIVERY_STATES } from '../notify/delivery-types.js';
import { TASK_STATUSES } from '../../shared/protocol.js';
import { agentCardSchema, artifactSchema, notificationConfigSchema, taskSchema } from '../server/schemas.js';

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const boolean = { type: 'boolean' } as const;
const freeObject = { type: 'object', additionalProperties: true } as const;
const status = { type: 'string', enum: [...TASK_STATUSES] } as const;
const nullableString = { type: ['string', 'null'] } as const;

/** A querystring value that may repeat (`?status=A&status=B`): one string or several. */
export const repeatable = { anyOf: [string, { type: 'array', items: string }] } as const;
/** Query values arrive as text (no coercion): a whole number of 1–15 digits. */
export const digits = { type: 'string', pattern: '^[0-9]{1,15}$' } as const;

// ---- session -----------------------------------------------------------------------------------

export const sessionRequestSchema = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const sessionInfoSchema = {
  type: 'object',
  required: ['version', 'a2a_url', 'data_dir', 'desktop'],
  properties: { version: string, a2a_url: string, data_dir: string, desktop: boolean },
} as const;

// ---- tasks -------------------------------------------------------------------------------------

export const taskListQuerySchema = {
  type: 'object',
  properties: { status: repeatable, agent: repeatable, q: { type: 'string', maxLength: 500 }, limit: digits, cursor: string },
} as const;

export const taskSummarySchema = {
  type: 'object',
  required: ['task_id', 'agent_slug', 'status', 'created_at', 'updated_at', 'input_preview'],
  properties: {
    task_id: string,
    agent_slug: string,
    status,
    created_at: string,
    updated_at: string,
    prompt: string,
    error_code: string,
    input_preview: string,
  },
} as const;

export const taskListPageSchema = {
  type: 'object',
  required: ['tasks', 'total'],
  properties: { tasks: { type: 'array', items: taskSummarySchema }, next_cursor: string, total: integer },
} as const;

export const taskEventSchema = {
  type: 'object',
  required: ['id', 'task_id', 'kind', 'data'],
  properties: {
    id: integer,
    task_id: string,
    kind: { type: 'string', enum: ['status', 'log', 'artifact', 'prompt', 'answer'] },
    data: freeObject,
  },
} as const;

export const deliverySummarySchema = {
  type: 'object',
  required: ['id', 'task_id', 'endpoint_url', 'webhook_id', 'status', 'state', 'attempts', 'created_at'],
  properties: {
    id: integer,
    task_id: string,
    endpoint_url: string,
    webhook_id: string,
    status,
    state: { type: 'string', enum: [...DELIVERY_STATES] },
    attempts: integer,
    next_attempt_at: string,
    last_status_code: integer,
    last_error: string,
    created_at: string,
    delivered_at: string,
  },
} as const;

export const taskDetailSchema = {
  type: 'object',
  required: ['task', 'agent_slug', 'agent_url', 'artifacts', 'deliveries', 'events', 'more_events_before'],
  properties: {
    task: taskSchema,
    agent_slug: string,
    agent_url: string,
    artifacts: { type: 'array', items: artifactSchema },
    deliveries: { type: 'array', items: deliverySummarySchema },
    events: { type: 'array', items: taskEventSchema },
    more_events_before: boolean,
  },
} as const;

/** `{id}` of a task, artifact, delivery or token: any string; an unknown one is a 404. */
export const idParamsSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: string },
} as const;

export const taskEventsQuerySchema = {
  type: 'object',
  properties: { before: digits, after: digits, limit: digits },
} as const;

export const taskEventsPageSchema = {
  type: 'object',
  required: ['events', 'more_before'],
  properties: { events: { type: 'array', items: taskEventSchema }, more_before: boolean },
} as const;

/** `{input}`: the answer to a prompt, or the input of a try-it task. */
export const inputBodySchema = {
  type: 'object',
  required: ['input'],
  additionalProperties: false,
  properties: { input: { type: 'object' } },
} as const;

export const inboxQuerySchema = {
  type: 'object',
  properties: { limit: digits, cursor: string },
} as const;

export const inboxSchema = {
  type: 'object',
  required: ['items', 'total'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['task', 'agent_slug', 'agent_display_name'],
        properties: { task: taskSchema, agent_slug: string, agent_display_name: string },
      },
    },
    next_cursor: string,
    total: integer,
  },
} as const;

// ---- artifacts ---------------------------------------------------------------------------------

export const artifactListQuerySchema = {
  type: 'object',
  properties: { agent: string, task: string, limit: digits, cursor: string },
} as const;

export const artifactListPageSchema = {
  type: 'object',
  required: ['artifacts'],
  properties: {
    artifacts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['artifact', 'agent_slug', 'task_status'],
        properties: { artifact: artifactSchema, agent_slug: string, task_status: status, path: string },
      },
    },
    next_cursor: string,
  },
} as const;

export const artifactContentQuerySchema = {
  type: 'object',
  properties: { download: { type: 'string', enum: ['0', '1', 'true', 'false'] } },
} as const;

// ---- agents ------------------------------------------------------------------------------------

const shownNotificationConfigSchema = {
  type: 'object',
  required: ['endpoint_url'],
  properties: { endpoint_url: string, auth_header: string },
} as const;

export const agentInfoSchema = {
  type: 'object',
  required: [
    'slug', 'display_name', 'description', 'agent_id', 'version', 'source', 'dir', 'enabled', 'concurrency',
    'manifest_concurrency', 'rerun_safe', 'base_url', 'card_url', 'card', 'running', 'queued',
  ],
  properties: {
    slug: string,
    display_name: string,
    description: string,
    agent_id: string,
    version: string,
    source: { type: 'string', enum: ['builtin', 'data-dir', 'cli'] },
    dir: string,
    enabled: boolean,
    concurrency: integer,
    manifest_concurrency: integer,
    rerun_safe: boolean,
    base_url: string,
    card_url: string,
    card: agentCardSchema,
    notification_config: shownNotificationConfigSchema,
    running: integer,
    queued: integer,
  },
} as const;

export const agentListSchema = {
  type: 'object',
  required: ['agents', 'load_errors'],
  properties: {
    agents: { type: 'array', items: agentInfoSchema },
    load_errors: {
      type: 'array',
      items: { type: 'object', required: ['dir', 'reason'], properties: { dir: string, slug: string, reason: string } },
    },
  },
} as const;

export const agentPatchSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    enabled: boolean,
    concurrency: { type: 'integer', minimum: 1, maximum: 64 },
    notification_config: {
      anyOf: [
        { type: 'null' },
        {
          ...notificationConfigSchema,
          properties: {
            ...notificationConfigSchema.properties,
            // "" removes the stored secret; absent keeps it (the UI is never shown it).
            signing_secret: { anyOf: [{ const: '' }, notificationConfigSchema.properties.signing_secret] },
          },
        },
      ],
    },
  },
} as const;

// ---- deliveries --------------------------------------------------------------------------------

export const deliveryListQuerySchema = {
  type: 'object',
  properties: { task: string, state: { type: 'string', enum: [...DELIVERY_STATES] }, limit: digits, cursor: string },
} as const;

export const deliveryListPageSchema = {
  type: 'object',
  required: ['deliveries'],
  properties: { deliveries: { type: 'array', items: deliverySummarySchema }, next_cursor: string },
} as const;

export const deliveryAttemptsSchema = {
  type: 'object',
  required: ['attempts'],
  properties: {
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['attempt', 'started_at'],
        properties: { attempt: integer, started_at: string, duration_ms: integer, status_code: integer, error: string },
      },
    },
  },
} as const;

// ---- tokens ------------------------------------------------------------------------------------

const tokenProperties = { token_id: string, name: string, created_at: string, last_used_at: nullableString } as const;

export const tokenListSchema = {
  type: 'object',
  required: ['tokens'],
  properties: {
    tokens: {
      type: 'array',
      items: { type: 'object', required: ['token_id', 'name', 'created_at', 'last_used_at'], properties: tokenProperties },
    },
  },
} as const;

export const createdTokenSchema = {
  type: 'object',
  required: ['token_id', 'name', 'created_at', 'last_used_at', 'token'],
  properties: { ...tokenProperties, token: string },
} as const;

export const tokenCreateSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

// ---- settings ----------------------------------------------------------------------------------

const serverSettingsProperties = {
  host: { type: 'string', minLength: 1, maxLength: 255 },
  port: { type: 'integer', minimum: 0, maximum: 65535 },
  require_token: boolean,
  allowed_hosts: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 255 } },
  allowed_origins: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 300, pattern: '^https?://[^/]+$' } },
} as const;

export const settingsInfoSchema = {
  type: 'object',
  required: ['server', 'retention_days', 'data_dir', 'restart_required'],
  properties: {
    server: {
      type: 'object',
      required: ['host', 'port', 'require_token', 'allowed_hosts', 'allowed_origins'],
      properties: {
        host: string,
        port: integer,
        require_token: boolean,
        allowed_hosts: { type: 'array', items: string },
        allowed_origins: { type: 'array', items: string },
      },
    },
    retention_days: integer,
    data_dir: string,
    restart_required: boolean,
  },
} as const;

export const settingsPatchSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    server: { type: 'object', additionalProperties: false, properties: serverSettingsProperties },
    retention_days: { type: 'integer', minimum: 0, maximum: 36500 },
  },
} as const;

// ---- intake ------------------------------------------------------------------------------------

export const intakeStateSchema = {
  type: 'object',
  required: ['paused'],
  properties: { paused: boolean, paused_at: string },
} as const;

/** Exactly `{paused}`: the only thing a person decides about intake. */
export const intakePatchSchema = {
  type: 'object',
  required: ['paused'],
  additionalProperties: false,
  properties: { paused: boolean },
} as const;
