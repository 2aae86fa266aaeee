/** Each scheduled delay is spread by ±20 %, so receivers coming back up are not hit in lockstep. */
export const JITTER_FRACTION = 0.2;

/** `delayMs` spread uniformly over ±JITTER_FRACTION (`random` returns [0, 1), like Math.random). */
export function withJitter(delayMs: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (1 - JITTER_FRACTION + 2 * JITTER_FRACTION * random()));
}

export interface RetryInput {
  /** Delays before each retry; entry i follows failed attempt i + 1. */
  schedule: readonly number[];
  /** Attempts made so far, the failed one included (1 after the first attempt). */
  attempts: number;
  /** What the receiver asked for in Retry-After, if it did. */
  retryAfterMs?: number;
  random?: () => number;
}

/**
 * The delay before the next attempt, or undefined once the schedule is used up (the delivery is
 * then dead). A Retry-After longer than the jittered step wins, capped at the schedule's longest
 * step so a receiver cannot park a delivery for days.
 */
export function nextRetryDelay(input: RetryInput): number | undefined {
  const step = input.schedule[input.attempts - 1];
  if (step === undefined) return undefined;
  const delay = withJitter(step, input.random);
  if (input.retryAfterMs === undefined) return delay;
  const asked = Math.min(input.retryAfterMs, Math.max(0, ...input.schedule));
  return Math.max(delay, asked);
}

/** A Retry-After header (delay-seconds or HTTP-date) as milliseconds from `nowMs`; undefined if unusable. */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date always has a weekday or month name; this keeps Date.parse from reading bare numbers.
  if (!/[A-Za-z]/.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
