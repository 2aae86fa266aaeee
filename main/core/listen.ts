import type { AddressInfo } from 'node:net';

/** A listener that could not start: `code` is the system's (EADDRINUSE…), the message says what to do. */
export class ListenError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ListenTarget {
  host: string;
  port: number;
  /** Where a person changes them, for the message: `--port or server.port in config.json`. */
  setting: string;
}

export function listenError(err: unknown, target: ListenTarget): ListenError {
  const code = (err as NodeJS.ErrnoException).code ?? 'LISTEN_FAILED';
  const where = `${target.host}:${target.port}`;
  if (code === 'EADDRINUSE') {
    return new ListenError(code, `port ${where} is already in use (another Agent Host?); choose another with ${target.setting}`);
  }
  if (code === 'EACCES') return new ListenError(code, `not allowed to listen on ${where}; choose a port above 1024`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new ListenError(code, `cannot listen on ${where}: no such address on this machine`);
  }
  return new ListenError(code, `cannot listen on ${where}: ${(err as Error).message}`);
}

/** `http://host:port`, with an IPv6 address in brackets. */
export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** The port a listening Fastify/Node server got (the one asked for, or the ephemeral one for 0). */
export function boundPort(address: AddressInfo | string | null, asked: number): number {
  return typeof address === 'object' && address ? address.port : asked;
}
