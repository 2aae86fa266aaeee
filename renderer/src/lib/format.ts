/**
 * Time and size formatting for the UI. Pure and locale-independent on purpose: the same input
 * always gives the same text, so rows don't change width between machines and tests can pin it.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "just now", "5 min ago", "3 h ago", "2 d ago", then the date ("Mar 4", or "Mar 4, 2024" in
 * another year). Minute-grained, so the list re-renders it once a minute, not every second.
 * Times slightly in the future (clock skew between host and browser) read as "just now".
 */
export function formatRelative(iso: string, nowMs: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '—';
  const diff = nowMs - then;
  if (diff < MINUTE) return 'just now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} min ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)} h ago`;
  if (diff < 7 * DAY) return `${Math.floor(diff / DAY)} d ago`;
  const date = new Date(then);
  const now = new Date(nowMs);
  const day = `${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return date.getFullYear() === now.getFullYear() ? day : `${day}, ${date.getFullYear()}`;
}

/** "250 ms", "4.2 s", "3 min 5 s", "2 h 10 min": for how long a step took. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < MINUTE) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  if (ms < HOUR) {
    const s = Math.floor((ms % MINUTE) / 1000);
    return s === 0 ? `${Math.floor(ms / MINUTE)} min` : `${Math.floor(ms / MINUTE)} min ${s} s`;
  }
  const min = Math.floor((ms % HOUR) / MINUTE);
  return min === 0 ? `${Math.floor(ms / HOUR)} h` : `${Math.floor(ms / HOUR)} h ${min} min`;
}

/** "512 B", "1.5 KB", "12 MB" (powers of 1024, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** "14:03:07.412": log lines and timeline entries, in the viewer's time zone. */
export function formatClock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** "Mar 4, 2025, 14:03:07": a full timestamp for tooltips and detail headers. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}, ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Thousands separators without Intl, so "100,000 tasks" reads the same everywhere. */
export function formatCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "1 task", "3 tasks". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The first 8 characters of a UUID: enough to tell tasks apart in a list. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}
