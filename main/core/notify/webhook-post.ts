import { request, type Dispatcher } from 'undici';
import { parseRetryAfter } from './retry-policy.js';

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt: connect, response headers and body. */
  timeoutMs: number;
  /** Aborted when the host stops and will not wait for this attempt. */
  signal: AbortSignal;
  dispatcher: Dispatcher;
}

export type PostOutcome =
  | { delivered: true; statusCode: number }
  | { delivered: false; statusCode?: number; error: string; retryAfterMs?: number; aborted?: true };

/** How much of a failed response's body is kept as the attempt's error, for the history. */
const ERROR_BODY_CHARS = 200;

/**
 * One POST. Only a 2xx counts as delivered; redirects are not followed (undici's `request` never
 * does), so a 3xx is a failure like any other status.
 */
export async function postWebhook(post: WebhookPost): Promise<PostOutcome> {
  const timeout = AbortSignal.timeout(post.timeoutMs);
  const signal = AbortSignal.any([timeout, post.signal]);
  let statusCode: number | undefined;
  try {
    const response = await request(post.url, {
      method: 'POST',
      headers: post.headers,
      body: post.body,
      signal,
      dispatcher: post.dispatcher,
    });
    statusCode = response.statusCode;
    if (statusCode >= 200 && statusCode < 300) {
      // The receiver has accepted it; a body that never ends does not undo that.
      await response.body.dump({ limit: 64 * 1024, signal }).catch(() => undefined);
      return { delivered: true, statusCode };
    }
    const snippet = await readSnippet(response.body, signal);
    const outcome: PostOutcome = { delivered: false, statusCode, error: `HTTP ${statusCode}${snippet ? `: ${snippet}` : ''}` };
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], Date.now());
    if (retryAfterMs !== undefined) outcome.retryAfterMs = retryAfterMs;
    return outcome;
  } catch (err) {
    const failed: PostOutcome = { delivered: false, error: describeError(err, post.timeoutMs, timeout, post.signal) };
    if (statusCode !== undefined) failed.statusCode = statusCode;
    if (post.signal.aborted && !timeout.aborted) failed.aborted = true;
    return failed;
  }
}

/** The start of a failed response's body, on one line; whatever arrives before the deadline. */
async function readSnippet(body: Dispatcher.ResponseData['body'], signal: AbortSignal): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
      if (text.length >= ERROR_BODY_CHARS || signal.aborted) break;
    }
  } catch {
    // A broken or hung body still leaves the status to report.
  } finally {
    body.destroy();
  }
  return text.slice(0, ERROR_BODY_CHARS).replace(/\s+/g, ' ').trim();
}

function describeError(err: unknown, timeoutMs: number, timeout: AbortSignal, stop: AbortSignal): string {
  if (timeout.aborted) return `timed out after ${timeoutMs} ms`;
  if (stop.aborted) return 'aborted: the host is shutting down';
  const error = err as { message?: unknown; code?: unknown };
  const message = typeof error.message === 'string' && error.message ? error.message : String(err);
  const code = typeof error.code === 'string' ? error.code : undefined;
  const text = code && !message.includes(code) ? `${code}: ${message}` : message;
  return text.slice(0, 500);
}
