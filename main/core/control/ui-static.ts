import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../shared/error-codes.js';
import { HostError } from '../host-error.js';
import { errorBody, sendErrorReply } from '../server/errors.js';
import { rootPlugin } from '../server/root-plugin.js';

/** The renderer's Vite output, `build/renderer/` (this file is build/main/core/control/ui-static.js). */
export function defaultUiDir(): string {
  return fileURLToPath(new URL('../../../renderer/', import.meta.url));
}

export interface UiStaticOptions {
  dir: string;
}

/** Vite names assets after their content hash, so an asset URL never changes content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * A page of the single-page app rather than a file: a GET outside /api whose last segment has no
 * extension (`/tasks/abc`). A missing `/assets/x.js` stays a 404 instead of becoming HTML.
 */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.raw.url?.split('?')[0] ?? '/';
  if (path === '/api' || path.startsWith('/api/')) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}

function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.raw.url?.split('?')[0] ?? '';
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return sendErrorReply(reply, 404, errorBody(ErrorCode.NOT_FOUND, `no such file or endpoint: ${request.method} ${shown}`));
}

/**
 * Serves the desk UI: the files of the renderer build, and index.html for every other page path
 * (the app routes in the browser). Without a build, pages answer 503 UI_NOT_BUILT, which says
 * what to do. Whether the build exists is decided at start, like the file list @fastify/static
 * reads then (`wildcard: false`, so no catch-all route shadows the /api context's 404s).
 */
export const uiStaticPlugin = rootPlugin(async (app, { dir }: UiStaticOptions) => {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) {
    const notBuilt = new HostError(
      503,
      ErrorCode.UI_NOT_BUILT,
      `the control UI is not built: ${index} is missing. Build it (npm run build), then restart Agent Host; the /api endpoints work meanwhile`,
    );
    app.setNotFoundHandler(async (request, reply) => {
      if (!isPageRequest(request)) return notFound(request, reply);
      throw notBuilt;
    });
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: false,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader('cache-control', path.includes(`${sep}assets${sep}`) ? IMMUTABLE : 'no-cache');
    },
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (!isPageRequest(request)) return notFound(request, reply);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
});
