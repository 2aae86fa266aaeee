import type { FastifyRequest } from 'fastify';

/**
 * The absolute base URL of an agent as the client addressed this server. The Host header is
 * safe to echo: the security plugin only lets through well-formed, allowed host names. The
 * server speaks plain HTTP (TLS, if any, is a proxy's job and out of scope).
 */
export function agentBaseUrl(request: FastifyRequest, slug: string): string {
  return `http://${request.headers.host ?? 'localhost'}/agents/${encodeURIComponent(slug)}`;
}
