import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply } from 'fastify';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ErrorBody } from '../../shared/protocol.js';
import { HostError } from '../host-error.js';

/** What a failed request is answered with: a status and the protocol's error body. */
export interface ErrorReply {
  statusCode: number;
  body: ErrorBody;
  /** Only a 5xx that is not a HostError: the real error must be logged, not shown. */
  unexpected: boolean;
  /** Extra response headers the error asks for (HostError.headers). */
  headers?: Readonly<Record<string, string>>;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function errorBody(code: ErrorCode, message: string, details?: unknown[]): ErrorBody {
  return details === undefined ? { error: { code, message } } : { error: { code, message, details } };
}

/** Fastify's own error codes that the client caused, with the protocol code each becomes. */
const FASTIFY_CODES: Readonly<Record<string, readonly [number, ErrorCode]>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, ErrorCode.MALFORMED_JSON],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, ErrorCode.MALFORMED_JSON],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, ErrorCode.PAYLOAD_TOO_LARGE],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, ErrorCode.UNSUPPORTED_MEDIA_TYPE],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, ErrorCode.BAD_REQUEST],
  FST_ERR_BAD_URL: [400, ErrorCode.BAD_REQUEST],
  // maxParamLength is set beyond what Node accepts in a request line, so this only guards.
  FST_ERR_MAX_PARAM_LENGTH: [404, ErrorCode.NOT_FOUND],
};

const CLIENT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.MALFORMED_JSON]: 'the request body is not valid JSON (or uses a forbidden __proto__ / constructor key)',
  [ErrorCode.PAYLOAD_TOO_LARGE]: 'the request body is larger than the server accepts',
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 'the request body must be JSON (Content-Type: application/json)',
};

function isFastifyError(err: unknown): err is FastifyError {
  return err instanceof Error && typeof (err as Partial<FastifyError>).code === 'string';
}

/** Ajv errors from Fastify's request validation, in the shape TaskService uses for details. */
function requestValidationDetails(err: FastifyError): unknown[] {
  return (err.validation ?? []).map((e) => ({
    location: err.validationContext ?? 'request',
    path: e.instancePath || '/',
    message: e.message ?? 'is invalid',
    keyword: e.keyword,
    params: e.params,
  }));
}

/** Maps anything thrown while serving a request to the reply the client gets. */
export function toErrorReply(err: unknown): ErrorReply {
  if (err instanceof HostError) {
    const reply: ErrorReply = { statusCode: err.statusCode, body: errorBody(err.code, err.message, err.details), unexpected: false };
    if (err.headers !== undefined) reply.headers = err.headers;
    return reply;
  }
  if (isFastifyError(err)) {
    if (err.validation) {
      return {
        statusCode: 400,
        body: errorBody(ErrorCode.BAD_REQUEST, err.message, requestValidationDetails(err)),
        unexpected: false,
      };
    }
    const known = FASTIFY_CODES[err.code];
    if (known) {
      const [statusCode, code] = known;
      return { statusCode, body: errorBody(code, CLIENT_MESSAGES[code] ?? err.message), unexpected: false };
    }
    // Any other client error Fastify raises (4xx) carries a safe, generic message.
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      const code = err.statusCode === 404 ? ErrorCode.NOT_FOUND : ErrorCode.BAD_REQUEST;
      return { statusCode: err.statusCode, body: errorBody(code, err.message), unexpected: false };
    }
  }
  return {
    statusCode: 500,
    body: errorBody(ErrorCode.INTERNAL_ERROR, 'internal error; see the host log'),
    unexpected: true,
  };
}

/** Sends a protocol error body, pre-serialized so no route's response schema can reshape it. */
export function sendErrorReply(reply: FastifyReply, statusCode: number, body: ErrorBody): FastifyReply {
  return reply
    .code(statusCode)
    .header('content-type', JSON_CONTENT_TYPE)
    .header('x-content-type-options', 'nosniff')
    .send(JSON.stringify(body));
}

/** The raw HTTP response for errors Node reports before Fastify has a request (bad HTTP). */
export function rawErrorResponse(statusCode: number, message: string): string {
  const body = JSON.stringify(errorBody(ErrorCode.BAD_REQUEST, message));
  return (
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? 'Error'}\r\n` +
    `Content-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    'X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
    body
  );
}
