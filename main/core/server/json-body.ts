import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../../shared/error-codes.js';
import { HostError } from '../host-error.js';
import { rootPlugin } from './root-plugin.js';

/**
 * `application/json`, optionally with `charset=utf-8` (JSON is UTF-8 by RFC 8259). Anything
 * else is refused, including look-alikes such as `application/json-seq` or `text/json`,
 * so a browser can't smuggle a "simple" cross-site request (text/plain, form encodings) in.
 */
export function isJsonContentType(value: string): boolean {
  const [mediaType = '', ...parameters] = value.split(';');
  if (mediaType.trim().toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const trimmed = parameter.trim();
    return trimmed === '' || /^charset\s*=\s*"?utf-?8"?$/i.test(trimmed);
  });
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function unsupported(message: string): HostError {
  return new HostError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, message);
}

/**
 * Request bodies are JSON only (DESIGN.md: state-changing requests whose body is not JSON are
 * refused). Fastify's default parsers (which include text/plain) are replaced by one JSON
 * parser; the Content-Type is checked before the body is read, and an empty JSON body parses
 * as "no body" so each route decides whether that is acceptable.
 */
export const jsonBodyPlugin = rootPlugin(async (app) => {
  app.removeAllContentTypeParsers();
  // Fastify's own JSON parser: secure-json-parse, refusing __proto__ / constructor poisoning.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs 'string' always gives a string; the parser's type also allows a Buffer.
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });

  app.addHook('onRequest', async (request) => {
    // GET/HEAD/OPTIONS bodies are never read; unknown routes and wrong methods answer 404/405
    // whatever their body. Every other method (POST, PATCH, DELETE…) may only carry JSON.
    if (BODYLESS_METHODS.has(request.method) || request.is404) return;
    const contentType = request.headers['content-type'];
    if (contentType !== undefined) {
      if (!isJsonContentType(contentType)) {
        throw unsupported('the request body must be JSON (Content-Type: application/json)');
      }
    } else if (hasBody(request)) {
      throw unsupported('a request body needs Content-Type: application/json');
    }
  });
});

/**
 * Route hook (preValidation) for endpoints whose body is required: a POST with no body and
 * no Content-Type is refused as not being JSON. An empty body that claims to be JSON reaches
 * schema validation and fails there (400).
 */
export async function requireJsonBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined && request.headers['content-type'] === undefined) {
    throw unsupported('this endpoint needs a JSON body (Content-Type: application/json)');
  }
}

/** Route hook (preValidation) for endpoints whose body is empty: no body is validated as `{}`. */
export async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {};
}
