import { isIPv4 } from 'node:net';

/** Addresses that mean "every interface": binding to them is not binding to a specific host. */
const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '*']);

/** Names every server answers to, whatever it binds: the loopback names. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** `[v6]` → `v6`, lower-cased, surrounding whitespace dropped. */
function bare(host: string): string {
  const trimmed = host.trim().toLowerCase();
  return trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
}

/**
 * Whether `host` (a bind address or host name) is loopback only: `localhost`, 127.0.0.0/8,
 * `::1` (also bracketed) or an IPv4-mapped loopback address. Wildcards are not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const name = bare(host);
  if (name === 'localhost' || name === '::1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return isIPv4(v4) && v4.startsWith('127.');
}

// A Host header: a reg-name or IPv4 address, or a bracketed IPv6 literal, then an optional port.
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9._~-]+))(?::(\d{1,5}))?$/i;

/** The host name of a Host header, lower-cased and without brackets or port; undefined if malformed. */
export function hostnameOfHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const match = HOST_HEADER.exec(value);
  if (!match) return undefined;
  return (match[1] ?? match[2] ?? '').toLowerCase();
}

/** A configured host name, which may carry a port or brackets, in the form hostnameOfHeader returns. */
export function normalizeConfiguredHost(entry: string): string {
  const trimmed = entry.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    return end > 0 ? trimmed.slice(1, end) : trimmed;
  }
  // More than one colon: a bare IPv6 literal, which cannot carry a port without brackets.
  const colons = trimmed.split(':').length - 1;
  return colons === 1 ? trimmed.slice(0, trimmed.indexOf(':')) : trimmed;
}

/** Whether binding `host` means every interface (0.0.0.0, ::) rather than one address. */
export function isWildcardHost(host: string): boolean {
  return WILDCARD_HOSTS.has(bare(host));
}

/**
 * The host names this server accepts in a Host header (DNS-rebinding defence): the loopback
 * names, the bound address when it is a specific one, and the configured extra names.
 */
export function allowedHostnames(boundHost: string, extra: readonly string[]): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (!isWildcardHost(boundHost)) names.add(normalizeConfiguredHost(boundHost));
  for (const entry of extra) {
    const name = normalizeConfiguredHost(entry);
    if (name !== '') names.add(name);
  }
  return names;
}

/**
 * An origin in its serialized form (lower-case scheme and host, no default port), so a
 * configured `HTTP://Example.com:80/` and a browser's `http://example.com` compare equal.
 * Values that are not URLs (such as the opaque origin `null`) are kept as they are.
 */
export function normalizeOrigin(origin: string): string {
  const trimmed = origin.trim();
  try {
    const url = new URL(trimmed);
    return url.origin === 'null' ? trimmed : url.origin;
  } catch {
    return trimmed;
  }
}
