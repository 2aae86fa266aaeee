import { ErrorCode } from '../../shared/error-codes.js';
import { HostError } from '../host-error.js';

/**
 * Keyset paging: a cursor is the opaque form (base64url) of the last row's key, so a page
 * stays exact while rows arrive or go. Clients pass `next_cursor` back untouched.
 */
export function encodeCursor(key: number): string {
  return Buffer.from(String(key), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[0-9]{1,15}$/.test(text) || encodeCursor(Number(text)) !== cursor) {
    throw new HostError(400, ErrorCode.BAD_REQUEST, 'cursor is not a next_cursor this API gave out');
  }
  return Number(text);
}

/** `limit` from a query string (digits, checked by the route's schema), within 1–max. */
export function pageLimit(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const limit = Number(raw);
  if (limit < 1 || limit > max) throw new HostError(400, ErrorCode.BAD_REQUEST, `limit must be from 1 to ${max}`);
  return limit;
}

/** A repeatable query value, `?k=a&k=b` or `?k=a,b` (or both), as its distinct non-empty items. */
export function listParam(raw: string | string[] | undefined): string[] {
  if (raw === undefined) return [];
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => value.split(','));
  return [...new Set(values.map((value) => value.trim()).filter((value) => value !== ''))];
}

/**
 * Runs `fetch(limit + 1)` and splits off the extra row: present means there is a next page,
 * whose cursor is the key of the last row shown.
 */
export function keysetPage<Row>(limit: number, fetch: (count: number) => Row[], keyOf: (row: Row) => number): { rows: Row[]; nextCursor?: string } {
  const rows = fetch(limit + 1);
  if (rows.length <= limit) return { rows };
  const shown = rows.slice(0, limit);
  return { rows: shown, nextCursor: encodeCursor(keyOf(shown[shown.length - 1]!)) };
}
