/** `YYYY-MM-DDTHH:MM:SS.sssZ`, the protocol's only timestamp format. */
export function nowIso(): string {
  return new Date().toISOString();
}
