import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { PROTOCOL_VERSION, type AgentCard, type NotificationConfig } from '../../shared/protocol.js';
import type { LoadedAgent } from './loaded-agent.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The agent's AgentCard, as served at `{base}/agent-card.json`. */
export function buildAgentCard(agent: LoadedAgent): AgentCard {
  const { manifest } = agent;
  const card: AgentCard = {
    protocol_version: PROTOCOL_VERSION,
    agent_id: agent.agentId,
    display_name: manifest.display_name,
    description: manifest.description,
    capabilities: [...manifest.capabilities],
    input_schema: manifest.input_schema,
  };
  if (manifest.output_schema) card.output_schema = manifest.output_schema;
  if (agent.notificationConfig) card.notification_config = publicNotificationConfig(agent.notificationConfig);
  return card;
}

/**
 * The card is readable by every allowed caller, so the webhook's credentials are withheld: the auth
 * header's name stays (the receiver learns what to check), its value does not leave this machine,
 * and the signing secret is left out entirely (only listed fields are copied).
 */
export function publicNotificationConfig(config: NotificationConfig): NotificationConfig {
  const shown: NotificationConfig = { endpoint_url: config.endpoint_url };
  if (config.auth_header !== undefined) {
    const name = config.auth_header.split(':', 1)[0]!.trim();
    shown.auth_header = `${name}: ${REDACTED}`;
  }
  return shown;
}

export const REDACTED = '[redacted]';

/**
 * The AgentCard JSON Schema, character for character as the A2A 1.0 reference prints it, so
 * checking served cards against it checks them against the spec and not against our reading of it.
 */
export const AGENT_CARD_SCHEMA_TEXT = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "AgentCard",
  "type": "object",
  "properties": {
    "protocol_version": {
      "type": "string",
      "const": "1.0"
    },
    "agent_id": {
      "type": "string",
      "format": "uuid"
    },
    "display_name": {
      "type": "string",
      "minLength": 1
    },
    "description": {
      "type": "string",
      "minLength": 10
    },
    "capabilities": {
      "type": "array",
      "items": { "type": "string" }
    },
    "input_schema": {
      "type": "object",
      "minProperties": 1
    },
    "output_schema": {
      "type": "object"
    },
    "notification_config": {
      "type": "object",
      "properties": {
        "endpoint_url": {
          "type": "string",
          "format": "uri"
        },
        "auth_header": {
          "type": "string"
        }
      },
      "required": ["endpoint_url"]
    }
  },
  "required": [
    "protocol_version",
    "agent_id",
    "display_name",
    "description",
    "capabilities",
    "input_schema"
  ]
}`;

export const AGENT_CARD_SCHEMA = JSON.parse(AGENT_CARD_SCHEMA_TEXT) as Record<string, unknown>;

/** Validates a value against the spec's AgentCard schema (draft-07, with the uuid and uri formats). */
export const validateAgentCard: ValidateFunction<AgentCard> = addFormats(
  new Ajv({ allErrors: true }),
).compile<AgentCard>(AGENT_CARD_SCHEMA);
