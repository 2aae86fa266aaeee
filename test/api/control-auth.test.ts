/**
 * The control listener's front door: session login (one-time tokens, the cookie), what a caller
 * without a session can see (nothing), Host/Origin/body-type refusals, and the UI's static files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../build/main/shared/control-api.js';
import type { ErrorBody, Task } from '../../build/main/shared/protocol.js';
import { runCli } from '../support/cli-process.js';
import { ControlClient } from '../support/control-client.js';
import { fetchJson } from '../support/fetch-json.js';
import { rawRequest } from '../support/raw-http.js';
import { makeTempDir } from '../support/temp-dir.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const UI_CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Every endpoint of the contract, with sample parameters, and a path that is no endpoint. */
const API_ROUTES: Array<[method: string, path: string, body?: unknown]> = [
  ['GET', '/api/tasks'],
  ['GET', '/api/tasks/TASK'],
  ['GET', '/api/tasks/TASK/events'],
  ['POST', '/api/tasks/TASK/answer', { input: { name: 'x' } }],
  ['POST', '/api/tasks/TASK/cancel'],
  ['GET', '/api/inbox'],
  ['GET', '/api/artifacts'],
  ['GET', '/api/artifacts/ARTIFACT/content'],
  ['GET', '/api/agents'],
  ['PATCH', '/api/agents/echo', { enabled: false }],
  ['POST', '/api/agents/echo/tasks', { input: { message: 'sneaky' } }],
  ['GET', '/api/deliveries'],
  ['GET', '/api/deliveries/1/attempts'],
  ['POST', '/api/deliveries/1/redeliver'],
  ['GET', '/api/tokens'],
  ['POST', '/api/tokens', { name: 'sneaky' }],
  ['DELETE', '/api/tokens/TOKEN'],
  ['GET', '/api/settings'],
  ['PATCH', '/api/settings', { retention_days: 1 }],
  ['GET', '/api/events'],
  ['GET', '/api/no-such-endpoint'],
  ['DELETE', '/api/tasks'],
];

let t: TestHost;
let ui: { dir: string; cleanup: () => void };
let taskId = '';
let artifactId = '';
let tokenId = '';

beforeAll(async () => {
  ui = makeTempDir('agent-host-ui-');
  mkdirSync(join(ui.dir, 'assets'));
  writeFileSync(join(ui.dir, 'index.html'), '<!doctype html><title>Agent Host</title><script type="module" src="/assets/app-1a2b.js"></script>');
  writeFileSync(join(ui.dir, 'assets', 'app-1a2b.js'), 'console.log("ui");');
  t = await startTestHost({ uiDir: ui.dir });
  const created = await t.request<Task>('POST', '/agents/echo/tasks', {
    input: { message: 'secret input', artifacts: [{ type: 'text', content: 'secret artifact' }] },
  });
  taskId = created.body.task_id;
  await t.waitForStatus(taskId, 'COMPLETED');
  artifactId = t.host.store.listArtifacts(taskId)[0]!.artifact.artifact_id;
  tokenId = t.host.tokens.create('kept').token_id;
});

afterAll(async () => {
  await t.cleanup();
  ui.cleanup();
});

const withIds = (path: string): string =>
  path.replace('TASK', taskId).replace('ARTIFACT', artifactId).replace('TOKEN', tokenId);

describe('without a session', () => {
  it('answers 401 UNAUTHORIZED on every /api route, unknown ones too, and reveals nothing', async () => {
    for (const [method, path, body] of API_ROUTES) {
      const res = await fetchJson<ErrorBody>(method, `${t.controlUrl}${withIds(path)}`, body, { origin: t.controlUrl });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error.code, `${method} ${path}`).toBe('UNAUTHORIZED');
      expect(res.text).not.toContain('secret');
      expect(res.text).not.toContain(taskId);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('changed nothing on the way', async () => {
    expect(t.host.registry.get('echo')?.enabled).toBe(true);
    expect(t.host.tokens.list().map((token) => token.name)).toEqual(['kept']);
    expect(t.host.store.tasksInStatus('SUBMITTED').concat(t.host.store.tasksInStatus('WORKING'))).toEqual([]);
    expect(t.host.config.retention_days).toBe(0);
  });

  it('refuses a forged or unknown session, by cookie or by bearer header', async () => {
    const forged: Array<Record<string, string>> = [{ cookie: 'ah_session=forged' }, { authorization: 'Bearer forged' }, { authorization: 'Basic eDp5' }];
    for (const headers of forged) {
      expect((await fetchJson('GET', `${t.controlUrl}/api/tasks`, undefined, headers)).status).toBe(401);
    }
  });
});

describe('signing in', () => {
  it('exchanges a one-time token for an HttpOnly, SameSite=Strict session cookie, once', async () => {
    const token = t.host.mintSessionToken();
    const res = await fetchJson<SessionInfo>('POST', `${t.controlUrl}/api/session`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), a2a_url: t.url, data_dir: t.dataDir, desktop: false });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ah_session=[A-Za-z0-9_-]{43}; /);
    const flags = cookie.split(';').slice(1).map((flag) => flag.trim());
    expect(flags.sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict']);

    const again = await fetchJson<ErrorBody>('POST', `${t.controlUrl}/api/session`, { token });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('UNAUTHORIZED');
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('keeps the session: GET /api/session answers 200 with it, 401 without', async () => {
    const client = await t.controlSession();
    expect((await client.get<SessionInfo>('/api/session')).body.a2a_url).toBe(t.url);
    expect((await fetchJson('GET', `${t.controlUrl}/api/session`)).status).toBe(401);
  });

  it('accepts the session id as a bearer token for non-browser clients', async () => {
    const client = await t.controlSession();
    const res = await fetchJson('GET', `${t.controlUrl}/api/agents`, undefined, { authorization: `Bearer ${client.sessionId}` });
    expect(res.status).toBe(200);
  });

  it('marks sessions from tokens minted for the desktop window', async () => {
    const client = await ControlClient.signIn(t.controlUrl, t.host.mintSessionToken({ desktop: true }));
    expect((await client.get<SessionInfo>('/api/session')).body.desktop).toBe(true);
  });

  it('refuses an unknown token and a malformed body', async () => {
    expect((await fetchJson('POST', `${t.controlUrl}/api/session`, { token: 'x'.repeat(43) })).status).toBe(401);
    expect((await fetchJson('POST', `${t.controlUrl}/api/session`, { token: 42 })).status).toBe(400);
    expect((await fetchJson('POST', `${t.controlUrl}/api/session`, 'token=x', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
  });

  it('prints a working one-time login URL on the headless command line', async () => {
    const tmp = makeTempDir();
    const p = runCli(['--headless', '--port', '0', '--control-port', '0', '--data-dir', tmp.dir, '--log-level', 'silent']);
    try {
      const [, base, token] = await p.waitForOutput(/^Control UI: (http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]{43})$/m);
      expect((await fetchJson('POST', `${base}/api/session`, { token })).status).toBe(200);
      expect((await fetchJson('POST', `${base}/api/session`, { token })).status).toBe(401);
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
      tmp.cleanup();
    }
  });
});

describe('browser defences', () => {
  let client: ControlClient;
  beforeAll(async () => {
    client = await t.controlSession();
  });

  it('refuses a Host header that is not a loopback name (DNS rebinding)', async () => {
    const port = new URL(t.controlUrl).port;
    for (const host of [`evil.example:${port}`, 'evil.example', `192.168.1.5:${port}`]) {
      const res = await rawRequest(t.controlUrl, { path: '/api/tasks', headers: { host, cookie: client.cookie } });
      expect(res.status, host).toBe(403);
      expect((res.json as ErrorBody).error.code).toBe('HOST_NOT_ALLOWED');
    }
    const page = await rawRequest(t.controlUrl, { path: '/', headers: { host: 'evil.example' } });
    expect(page.status).toBe(403);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await rawRequest(t.controlUrl, { path: '/api/tasks', headers: { host, cookie: client.cookie } })).status).toBe(200);
    }
  });

  it('refuses any Origin but the listener\'s own, for reads and changes', async () => {
    const port = new URL(t.controlUrl).port;
    for (const origin of ['http://evil.example', `http://127.0.0.1:${Number(port) + 1}`, t.url, 'null']) {
      const read = await client.request<ErrorBody>('GET', '/api/tasks', undefined, { origin });
      expect(read.status, origin).toBe(403);
      expect(read.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
      const change = await client.request<ErrorBody>('POST', '/api/tokens', { name: 'csrf' }, { origin });
      expect(change.status, origin).toBe(403);
    }
    expect(t.host.tokens.list().some((token) => token.name === 'csrf')).toBe(false);
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      expect((await client.request('GET', '/api/tasks', undefined, { origin })).status).toBe(200);
    }
  });

  it('refuses a change made with the cookie but without an Origin; a bearer client needs none', async () => {
    const noOrigin = await fetchJson<ErrorBody>('POST', `${t.controlUrl}/api/tokens`, { name: 'csrf' }, { cookie: client.cookie });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    const bearer = await fetchJson('POST', `${t.controlUrl}/api/tokens`, { name: 'cli' }, { authorization: `Bearer ${client.sessionId}` });
    expect(bearer.status).toBe(201);
  });

  it('takes JSON bodies only (415), on POST, PATCH and DELETE alike', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const [method, path] of [['POST', '/api/tokens'], ['PATCH', '/api/settings'], ['DELETE', `/api/tokens/${tokenId}`]] as const) {
      const res = await client.request<ErrorBody>(method, path, 'name=x', form);
      expect(res.status, `${method} ${path}`).toBe(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const text = await client.request('POST', '/api/tokens', '{"name":"x"}', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(t.host.tokens.list().some((token) => token.token_id === tokenId)).toBe(true);
  });

  it('sends the UI security headers and keeps API answers out of caches', async () => {
    const res = await client.get('/api/tasks');
    expect(res.headers.get('content-security-policy')).toBe(UI_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the UI files', () => {
  it('serves index.html at / with the strict CSP, nosniff and no Referer', async () => {
    const res = await fetch(`${t.controlUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(UI_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('<title>Agent Host</title>');
  });

  it('serves the hashed assets as immutable', async () => {
    const res = await fetch(`${t.controlUrl}/assets/app-1a2b.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log("ui");');
  });

  it('answers every other page path with index.html (the app routes in the browser), with the token in the query', async () => {
    for (const path of ['/tasks', '/tasks/abc-123', `/?token=${'x'.repeat(43)}`, '/settings/tokens']) {
      const res = await fetch(`${t.controlUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('<title>Agent Host</title>');
    }
  });

  it('does not turn a missing file or a non-GET into the page', async () => {
    const missing = await fetchJson<ErrorBody>('GET', `${t.controlUrl}/assets/missing-9z.js`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect((await fetchJson('POST', `${t.controlUrl}/tasks`, {})).status).toBe(404);
  });

  it('answers 503 UI_NOT_BUILT with a clear message when there is no build, while the API works', async () => {
    const empty = makeTempDir('agent-host-no-ui-');
    const bare = await startTestHost({ uiDir: join(empty.dir, 'renderer') });
    try {
      for (const path of ['/', '/tasks/abc']) {
        const res = await fetchJson<ErrorBody>('GET', `${bare.controlUrl}${path}`);
        expect(res.status, path).toBe(503);
        expect(res.body.error.code).toBe('UI_NOT_BUILT');
        expect(res.body.error.message).toContain('index.html');
      }
      const client = await bare.controlSession();
      expect((await client.get('/api/tasks')).status).toBe(200);
    } finally {
      await bare.cleanup();
      empty.cleanup();
    }
  });
});
