import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: unguessable, and safe in a URL and a cookie as is. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The form a secret is stored and looked up by: its SHA-256. Never the secret itself, so a copy of
 * the store (or a timing difference in a Map's key comparison) gives nothing away.
 */
export function secretLookupKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}
