/**
 * JSON over HTTP to the control API: same origin, the session cookie rides along. Every failure
 * becomes an ApiError with the server's code and message (or a clear one of ours when the host
 * can't be reached), so views show one kind of error.
 */
import type { ErrorBody } from '../../../main/shared/protocol.js';

/** Codes of our own, beside the server's ErrorCode values. */
export const NETWORK_ERROR = 'NETWORK_ERROR';
export const BAD_RESPONSE = 'BAD_RESPONSE';

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when no answer came (host stopped, network down). */
    readonly status: number,
    readonly code: string,
    message: string,
    /** Validation details (`{path, message, keyword, params}`) for 400s. */
    readonly details: readonly unknown[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** A sentence for a person, from anything a request may throw. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export interface HttpOptions {
  /** Called on every 401 except from the session endpoints: the session ended (host restarted, cookie gone). */
  onUnauthorized?: () => void;
  fetchImpl?: typeof fetch;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

export class Http {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HttpOptions = {}) {
    // Bound: calling an unbound window.fetch throws "Illegal invocation".
    this.fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  }

  async request<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const init: RequestInit = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
    }
    if (signal) init.signal = signal;
    let res: Response;
    try {
      res = await this.fetchImpl(path, init);
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ApiError(0, NETWORK_ERROR, 'Agent Host is not answering. Is it still running?');
    }
    const text = await res.text().catch(() => '');
    const parsed = text ? safeParse(text) : undefined;
    if (!res.ok) {
      if (res.status === 401 && !path.startsWith('/api/session')) this.options.onUnauthorized?.();
      throw toApiError(res.status, parsed, text);
    }
    if (text && parsed === undefined) throw new ApiError(res.status, BAD_RESPONSE, `Unexpected answer from ${path} (not JSON).`);
    return parsed as T;
  }
}

function toApiError(status: number, parsed: unknown, text: string): ApiError {
  const body = parsed as Partial<ErrorBody> | undefined;
  const error = body?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError(status, error.code, error.message, Array.isArray(error.details) ? error.details : []);
  }
  return new ApiError(status, `HTTP_${status}`, text.trim().slice(0, 200) || `The request failed (HTTP ${status}).`);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `?a=1&b=x&b=y`: arrays repeat their key, empty values are left out. */
export function queryString(params: Record<string, string | number | readonly string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const v of value) search.append(key, v);
    else search.append(key, String(value));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

export function segment(value: string): string {
  return encodeURIComponent(value);
}
