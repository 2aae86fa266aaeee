import { createHmac } from 'node:crypto';

/** A Standard Webhooks secret: `whsec_` and the base64 of the key. */
export const SIGNING_SECRET_PATTERN = '^whsec_[A-Za-z0-9+/=]+$';

const SECRET_PREFIX = 'whsec_';

/**
 * The Standard Webhooks signature, `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. The key
 * is the base64-decoded part after `whsec_`, as the spec and its libraries read the secret.
 */
export function signWebhook(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** `Name: value` as configured, split at the first colon (values may contain colons). */
export function splitHeaderLine(line: string): { name: string; value: string } {
  const colon = line.indexOf(':');
  if (colon <= 0) throw new Error('auth_header must be written "Name: value"');
  return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
}

export interface WebhookHeaderInput {
  webhookId: string;
  /** Unix seconds of this attempt (not of the event): receivers reject stale timestamps. */
  timestampSeconds: number;
  body: string;
  authHeader?: string | null;
  signingSecret?: string | null;
}

/**
 * The headers of one attempt. The protocol's and Standard Webhooks' headers are set after the
 * configured auth header, so a misconfigured auth header cannot replace them.
 */
export function webhookHeaders(input: WebhookHeaderInput): Record<string, string> {
  const headers: Record<string, string> = {};
  if (input.authHeader) {
    const { name, value } = splitHeaderLine(input.authHeader);
    headers[name.toLowerCase()] = value;
  }
  headers['content-type'] = 'application/json';
  headers['user-agent'] = 'Agent-Host-Webhooks';
  headers['webhook-id'] = input.webhookId;
  headers['webhook-timestamp'] = String(input.timestampSeconds);
  if (input.signingSecret) {
    headers['webhook-signature'] = signWebhook(input.signingSecret, input.webhookId, input.timestampSeconds, input.body);
  }
  return headers;
}
