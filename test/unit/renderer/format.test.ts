import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDuration, formatRelative, plural, shortId } from '../../../renderer/src/lib/format.js';

const now = Date.parse('2025-06-15T12:00:00.000Z');
const ago = (ms: number): string => new Date(now - ms).toISOString();
const MIN = 60_000;

describe('relative time', () => {
  it('is minute-grained up to an hour, then hours, then days', () => {
    expect(formatRelative(ago(0), now)).toBe('just now');
    expect(formatRelative(ago(59_999), now)).toBe('just now');
    expect(formatRelative(ago(MIN), now)).toBe('1 min ago');
    expect(formatRelative(ago(59 * MIN), now)).toBe('59 min ago');
    expect(formatRelative(ago(60 * MIN), now)).toBe('1 h ago');
    expect(formatRelative(ago(23 * 60 * MIN + 59 * MIN), now)).toBe('23 h ago');
    expect(formatRelative(ago(24 * 60 * MIN), now)).toBe('1 d ago');
    expect(formatRelative(ago(6 * 24 * 60 * MIN), now)).toBe('6 d ago');
  });

  it('shows the date after a week, with the year only when it differs', () => {
    const local = (y: number, m: number, d: number): string => new Date(y, m, d, 9, 30).toISOString();
    const localNow = new Date(2025, 5, 15, 12).getTime();
    expect(formatRelative(local(2025, 2, 4), localNow)).toBe('Mar 4');
    expect(formatRelative(local(2024, 11, 31), localNow)).toBe('Dec 31, 2024');
  });

  it('reads a time slightly in the future (clock skew) as now, and a broken one as a dash', () => {
    expect(formatRelative(ago(-5000), now)).toBe('just now');
    expect(formatRelative('not a date', now)).toBe('—');
  });

  it('changes when the clock moves on a minute (what the list re-renders for)', () => {
    const created = ago(30_000);
    expect(formatRelative(created, now)).toBe('just now');
    expect(formatRelative(created, now + MIN)).toBe('1 min ago');
  });
});

describe('durations, sizes, counts', () => {
  it('formats durations', () => {
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(4200)).toBe('4.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(3 * MIN + 5000)).toBe('3 min 5 s');
    expect(formatDuration(2 * 60 * MIN + 10 * MIN)).toBe('2 h 10 min');
    expect(formatDuration(-1)).toBe('—');
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12 * 1024 * 1024)).toBe('12 MB');
  });

  it('formats counts', () => {
    expect(formatCount(100000)).toBe('100,000');
    expect(plural(1, 'task')).toBe('1 task');
    expect(plural(12345, 'task')).toBe('12,345 tasks');
    expect(shortId('0b6f1234-aaaa')).toBe('0b6f1234');
  });
});
