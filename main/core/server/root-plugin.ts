import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/**
 * Marks a plugin as not encapsulated (Fastify's documented `skip-override` property, which is
 * what `fastify-plugin` sets): its hooks, parsers and handlers then apply to the whole server,
 * which is what the cross-cutting concerns (security, body parsing, errors) need.
 */
export function rootPlugin<Options extends object>(
  plugin: (app: FastifyInstance, options: Options) => Promise<void>,
): FastifyPluginAsync<Options> {
  const wrapped: FastifyPluginAsync<Options> = async (app, options) => plugin(app, options);
  Object.defineProperty(wrapped, Symbol.for('skip-override'), { value: true });
  return wrapped;
}
