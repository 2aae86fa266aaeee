import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../../build/main/core/config/host-config.js';
import { nextRetryDelay, parseRetryAfter, withJitter } from '../../../build/main/core/notify/retry-policy.js';

describe('retry schedule', () => {
  it('spreads a delay by ±20 %', () => {
    expect(withJitter(10_000, () => 0)).toBe(8000);
    expect(withJitter(10_000, () => 0.5)).toBe(10_000);
    expect(withJitter(10_000, () => 0.999999)).toBe(12_000);
    for (let i = 0; i < 1000; i += 1) {
      const delay = withJitter(5000);
      expect(delay).toBeGreaterThanOrEqual(4000);
      expect(delay).toBeLessThanOrEqual(6000);
    }
  });

  it('follows the default schedule: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    const middle = (): number => 0.5;
    const delays: Array<number | undefined> = [];
    for (let attempts = 1; attempts <= 8; attempts += 1) {
      delays.push(nextRetryDelay({ schedule: DEFAULT_RETRY_SCHEDULE_MS, attempts, random: middle }));
    }
    expect(delays).toEqual([5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, undefined]);
    expect(nextRetryDelay({ schedule: [], attempts: 1 })).toBeUndefined();
  });

  it('honours a Retry-After longer than the step, capped at the longest step', () => {
    const schedule = [1000, 60_000];
    const middle = (): number => 0.5;
    expect(nextRetryDelay({ schedule, attempts: 1, retryAfterMs: 30_000, random: middle })).toBe(30_000);
    expect(nextRetryDelay({ schedule, attempts: 1, retryAfterMs: 500, random: middle })).toBe(1000);
    expect(nextRetryDelay({ schedule, attempts: 1, retryAfterMs: 86_400_000, random: middle })).toBe(60_000);
    // Retry-After does not revive a delivery whose schedule is used up.
    expect(nextRetryDelay({ schedule, attempts: 3, retryAfterMs: 1000 })).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP-date', () => {
    const now = Date.parse('2024-05-01T12:00:00.000Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 May 2024 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter(['Wed, 01 May 2024 12:01:00 GMT'], now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now)).toBe(0);
    for (const bad of [undefined, '', '-5', '1.5', 'soon', '12:00']) expect(parseRetryAfter(bad, now)).toBeUndefined();
  });
});
