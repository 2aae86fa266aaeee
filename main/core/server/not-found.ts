import { ErrorCode } from '../../shared/error-codes.js';
import { errorBody, sendErrorReply } from './errors.js';
import { rootPlugin } from './root-plugin.js';

interface KnownRoute {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/agents/:slug/tasks/:id` → a RegExp matching concrete (still percent-encoded) paths. */
function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * Unknown routes answer 404 NOT_FOUND; a known path with a method it doesn't serve answers
 * 405 METHOD_NOT_ALLOWED with an `Allow` header. Fastify's router only reports "no route", so
 * this plugin records every route as it is added and matches the path itself.
 * Register it before the routes.
 */
export const notFoundPlugin = rootPlugin(async (app) => {
  const routes = new Map<string, KnownRoute>();

  app.addHook('onRoute', (route) => {
    // The CORS plugin's catch-all OPTIONS route is not an endpoint of ours.
    if (route.url.includes('*')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let known = routes.get(route.url);
    if (!known) {
      known = { pattern: routePattern(route.url), methods: new Set() };
      routes.set(route.url, known);
    }
    for (const method of methods) known.methods.add(method.toUpperCase());
    if (known.methods.has('GET')) known.methods.add('HEAD');
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.raw.url?.split('?')[0] ?? '';
    const allowed = new Set<string>();
    for (const route of routes.values()) {
      if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
    }
    if (allowed.size > 0 && !allowed.has(request.method)) {
      const allow = [...allowed].sort().join(', ');
      reply.header('allow', allow);
      return sendErrorReply(
        reply,
        405,
        errorBody(ErrorCode.METHOD_NOT_ALLOWED, `${request.method} is not allowed here; use ${allow}`),
      );
    }
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    return sendErrorReply(reply, 404, errorBody(ErrorCode.NOT_FOUND, `no such endpoint: ${request.method} ${shown}`));
  });
});
