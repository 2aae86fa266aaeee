import type { ErrorCode } from '../shared/error-codes.js';

/**
 * An error meant for the client: the server answers `{"error":{"code","message"}}` with
 * `statusCode`, and `headers` when given (e.g. `Retry-After` on a 503). Anything else thrown while
 * serving a request is a 500 INTERNAL_ERROR.
 */
export class HostError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown[],
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'HostError';
  }
}
