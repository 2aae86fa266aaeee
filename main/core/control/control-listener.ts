import type { FastifyInstance } from 'fastify';
import { isWildcardHost } from '../server/host-names.js';
import { boundPort, httpUrl, listenError } from '../listen.js';
import { buildControlServer, type ControlServerOptions } from './control-server.js';
import type { SessionGrant } from './sessions.js';

export interface ControlListener {
  server: FastifyInstance;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The address to open the UI at with a fresh one-time token: `url/?token=…`. */
  loginUrl(grant?: SessionGrant): string;
  /** A one-time token for POST /api/session (the desktop window asks for its own). */
  mintSessionToken(grant?: SessionGrant): string;
}

/**
 * Where this machine reaches a server bound to `host`: a wildcard bind (0.0.0.0, ::) is reached
 * on loopback. The UI uses it for the agents' and artifacts' A2A URLs.
 */
export function reachableUrl(host: string, port: number): string {
  if (isWildcardHost(host)) return httpUrl(host.includes(':') ? '::1' : '127.0.0.1', port);
  return httpUrl(host.replace(/^\[(.*)\]$/, '$1'), port);
}

/** Builds the control server and listens on `control.host`/`control.port` (loopback, checked with the config). */
export async function startControlListener(options: ControlServerOptions): Promise<ControlListener> {
  const { host, port } = options.config.control;
  const server = await buildControlServer(options);
  try {
    await server.listen({ host, port });
  } catch (err) {
    await server.close();
    throw listenError(err, { host, port, setting: '--control-port or control.port in config.json' });
  }
  const url = httpUrl(host, boundPort(server.server.address(), port));
  const mintSessionToken = (grant?: SessionGrant): string => options.sessions.mintToken(grant);
  return {
    server,
    url,
    mintSessionToken,
    loginUrl: (grant) => `${url}/?token=${mintSessionToken(grant)}`,
  };
}
