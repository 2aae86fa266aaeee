import type { DueDelivery } from './delivery-queue.js';
import { splitHeaderLine } from './signing.js';

/** The endpoint's origin only, for logs: a webhook URL's path or query can itself be a credential. */
export function endpointOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}

/** Error texts come from the network stack and receivers; make sure no credential rides along. */
export function redactCredentials(text: string, delivery: Pick<DueDelivery, 'auth_header' | 'signing_secret'>): string {
  let result = text;
  const secrets: string[] = [];
  if (delivery.signing_secret) secrets.push(delivery.signing_secret);
  if (delivery.auth_header) {
    try {
      secrets.push(splitHeaderLine(delivery.auth_header).value);
    } catch {
      secrets.push(delivery.auth_header);
    }
  }
  for (const secret of secrets) if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  return result;
}
