import type { ErrorCode } from '../shared/error-codes.js';

/**
 * An error meant for the client: the server answers `{"error":{"code","message"}}` with
 * `statusCode`. Anything else thrown while serving a request is a 500 INTERNAL_ERROR.
 */
export class HostError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
    this.name = 'HostError';
  }
}
