import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiresToken } from '../../../build/main/core/server/a2a-server.js';
import { allowedHostnames, hostnameOfHeader, isLoopbackHost } from '../../../build/main/core/server/host-names.js';
import { errorOf, startServer, type ServerFixture } from './server-fixture.js';

const countTasks = (s: ServerFixture): number => (s.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;

describe('isLoopbackHost and the Host allow-list', () => {
  it('tells loopback addresses from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '', '192.168.1.10', '10.0.0.1', 'example.com', 'localhost.example.com', '128.0.0.1', '::2']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('requires tokens when configured or when binding beyond loopback', () => {
    expect(requiresToken({ host: '127.0.0.1', require_token: false })).toBe(false);
    expect(requiresToken({ host: '127.0.0.1', require_token: true })).toBe(true);
    expect(requiresToken({ host: '0.0.0.0', require_token: false })).toBe(true);
    expect(requiresToken({ host: '192.168.1.10', require_token: false })).toBe(true);
  });

  it('parses Host headers strictly', () => {
    expect(hostnameOfHeader('LocalHost:7410')).toBe('localhost');
    expect(hostnameOfHeader('[::1]:7410')).toBe('::1');
    expect(hostnameOfHeader('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of [undefined, '', 'a b', 'evil.example/x', '[::1', 'host:port', 'h:1:2', 'user@host']) {
      expect(hostnameOfHeader(bad), String(bad)).toBeUndefined();
    }
  });

  it('allows the loopback names, a specific bound address and the configured names only', () => {
    expect([...allowedHostnames('0.0.0.0', [])].sort()).toEqual(['127.0.0.1', '::1', 'localhost']);
    expect([...allowedHostnames('::', [])].sort()).toEqual(['127.0.0.1', '::1', 'localhost']);
    expect(allowedHostnames('192.168.1.10', []).has('192.168.1.10')).toBe(true);
    expect(allowedHostnames('[fe80::1]', []).has('fe80::1')).toBe(true);
    const extra = allowedHostnames('127.0.0.1', ['My-Box.LOCAL:9999', '[fe80::2]:80', 'fe80::3', ' spaced.example ']);
    for (const name of ['my-box.local', 'fe80::2', 'fe80::3', 'spaced.example']) expect(extra.has(name), name).toBe(true);
  });
});

describe('Host header (DNS-rebinding defence)', () => {
  let s: ServerFixture;
  beforeAll(async () => {
    s = await startServer({ server: { allowed_hosts: ['My-Box.LOCAL:9999', '[fe80::1]'] } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('accepts loopback names and configured names, case-insensitively and on any port', async () => {
    const hosts = ['localhost', `localhost:${s.port}`, `127.0.0.1:${s.port}`, `[::1]:${s.port}`, '[::1]', `LOCALHOST:${s.port}`, 'my-box.local:7410', 'MY-BOX.local', '[fe80::1]:1'];
    for (const host of hosts) {
      const res = await s.raw('/agents', { headers: { host } });
      expect(res.status, host).toBe(200);
    }
  });

  it('refuses every other Host with 403 HOST_NOT_ALLOWED, before doing anything', async () => {
    const before = countTasks(s);
    const hosts = ['evil.example', `evil.example:${s.port}`, '127.0.0.1.evil.example', 'localhost.evil.example', `0.0.0.0:${s.port}`, '127.0.0.2', 'a b', '[::1', 'my-box.local.evil'];
    for (const host of hosts) {
      const get = await s.raw('/agents', { headers: { host } });
      expect(get.status, host).toBe(403);
      expect(errorOf(get).code, host).toBe('HOST_NOT_ALLOWED');
      const post = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: '{"input":{"message":"x"}}' });
      expect(post.status, host).toBe(403);
    }
    expect(countTasks(s)).toBe(before);
  });

  it('refuses a request without a Host header', async () => {
    const response = await new Promise<string>((resolve, reject) => {
      const socket = connect(s.port, '127.0.0.1', () => socket.write('GET /agents HTTP/1.0\r\n\r\n'));
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    expect(response).toMatch(/^HTTP\/1\.[01] 403 /);
    expect(response).toContain('"HOST_NOT_ALLOWED"');
  });
});

describe('Origin and CORS', () => {
  let s: ServerFixture;
  beforeAll(async () => {
    s = await startServer({ server: { allowed_origins: ['https://App.Example:443/', 'http://localhost:5173'] } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('refuses a request from an Origin that is not allowed, with no CORS headers', async () => {
    const before = countTasks(s);
    for (const origin of ['https://evil.example', 'null', 'http://localhost:5174', 'http://app.example', 'https://app.example.evil']) {
      const get = await s.raw('/agents', { headers: { origin } });
      expect(get.status, origin).toBe(403);
      expect(errorOf(get).code).toBe('ORIGIN_NOT_ALLOWED');
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
      const post = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{"input":{"message":"x"}}' });
      expect(post.status, origin).toBe(403);
    }
    expect(countTasks(s)).toBe(before);
  });

  it('echoes an allowed Origin (never *) with Vary: Origin, errors included', async () => {
    for (const origin of ['https://app.example', 'http://localhost:5173']) {
      const res = await s.raw('/agents', { headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(String(res.headers['vary'])).toMatch(/Origin/);
      expect(String(res.headers['access-control-expose-headers'])).toMatch(/Content-Disposition/);
    }
    const missing = await s.raw('/agents/echo/tasks/nope', { headers: { origin: 'https://app.example' } });
    expect(missing.status).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  it('sends no CORS headers to clients without an Origin', async () => {
    const res = await s.raw('/agents');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(res.headers['vary'])).toMatch(/Origin/);
  });

  it('answers preflights from allowed origins only', async () => {
    const preflight = (origin: string) =>
      s.raw('/agents/echo/tasks', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key, authorization' },
      });
    const ok = await preflight('https://app.example');
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(String(ok.headers['access-control-allow-methods'])).toMatch(/POST/);
    const allowedHeaders = String(ok.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['content-type', 'idempotency-key', 'authorization']) expect(allowedHeaders).toContain(header);
    const refused = await preflight('https://evil.example');
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('ORIGIN_NOT_ALLOWED');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('bearer tokens', () => {
  let s: ServerFixture;
  let token: string;
  let tokenId: string;
  beforeAll(async () => {
    s = await startServer({ server: { require_token: true, allowed_origins: ['https://app.example'] } });
    ({ token, token_id: tokenId } = s.tokens.create('tests'));
  });
  afterAll(async () => {
    await s.close();
  });

  it('refuses requests without a valid token: 401 UNAUTHORIZED with WWW-Authenticate: Bearer', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${token}x` },
      { authorization: `Basic ${Buffer.from(`user:${token}`).toString('base64')}` },
      { authorization: token },
      { authorization: 'Bearer' },
    ];
    for (const headers of cases) {
      for (const path of ['/agents', '/agents/echo/agent-card.json', '/no/such/route']) {
        const res = await s.raw(path, { headers });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(errorOf(res).code).toBe('UNAUTHORIZED');
        expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer\b/);
      }
    }
  });

  it('refuses an unauthenticated create without storing anything', async () => {
    const before = countTasks(s);
    const res = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":{"message":"x"}}' });
    expect(res.status).toBe(401);
    expect(countTasks(s)).toBe(before);
  });

  it('serves requests with a valid token and records its use', async () => {
    expect(s.tokens.list().find((t) => t.token_id === tokenId)?.last_used_at).toBeNull();
    for (const scheme of ['Bearer', 'bearer']) {
      const res = await s.raw('/agents', { headers: { authorization: `${scheme} ${token}` } });
      expect(res.status, scheme).toBe(200);
    }
    const created = await s.postJson('/agents/echo/tasks', { input: { message: 'x' } }, { authorization: `Bearer ${token}` });
    expect(created.status).toBe(202);
    expect((await s.raw('/no/such/route', { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    expect(s.tokens.list().find((t) => t.token_id === tokenId)?.last_used_at).toMatch(/^\d{4}-/);
  });

  it('answers a preflight without a token, since browsers send none', async () => {
    const res = await s.raw('/agents/echo/tasks', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  it('checks Host before the token', async () => {
    const res = await s.raw('/agents', { headers: { host: 'evil.example', authorization: `Bearer ${token}` } });
    expect(res.status).toBe(403);
  });

  it('stops accepting a revoked token', async () => {
    const extra = s.tokens.create('short-lived');
    expect((await s.raw('/agents', { headers: { authorization: `Bearer ${extra.token}` } })).status).toBe(200);
    expect(s.tokens.revoke(extra.token_id)).toBe(true);
    expect((await s.raw('/agents', { headers: { authorization: `Bearer ${extra.token}` } })).status).toBe(401);
  });
});

describe('binding beyond loopback', () => {
  it('accepts the bound address as Host and requires a token even if require_token is off', async () => {
    const s = await startServer({ server: { host: '10.1.2.3', require_token: false } });
    try {
      const { token } = s.tokens.create('remote');
      expect((await s.raw('/agents', { headers: { host: `10.1.2.3:${s.port}` } })).status).toBe(401);
      const ok = await s.raw('/agents', { headers: { host: `10.1.2.3:${s.port}`, authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect((ok.json as { agents: Array<{ url: string }> }).agents[0]?.url).toBe(`http://10.1.2.3:${s.port}/agents/echo`);
      expect((await s.raw('/agents', { headers: { host: 'evil.example', authorization: `Bearer ${token}` } })).status).toBe(403);
    } finally {
      await s.close();
    }
  });

  it('does not accept a wildcard bind address as a Host name', async () => {
    const s = await startServer({ server: { host: '0.0.0.0' } });
    try {
      const { token } = s.tokens.create('remote');
      expect((await s.raw('/agents', { headers: { host: `0.0.0.0:${s.port}`, authorization: `Bearer ${token}` } })).status).toBe(403);
      expect((await s.raw('/agents', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await s.raw('/agents')).status).toBe(401);
    } finally {
      await s.close();
    }
  });
});
