import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = join(ROOT, 'build/main/packaging/build-native.js');
const NODE_BUILD = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Node's own headers on this machine (npm's nodedir, or next to the node binary). */
function localNodeHeaders(): string | undefined {
  const candidates = [process.env['npm_config_nodedir'], resolve(dirname(process.execPath), '..')];
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, 'include', 'node', 'common.gypi')));
}

/** A loopback port that refuses connections: listen, note the port, close. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? '';

describe('build-native (npm run native:electron)', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let nodeBuildHash: string;

  beforeAll(() => {
    tmp = makeTempDir('agent-host-native-test-');
    nodeBuildHash = sha256(NODE_BUILD);
  });
  afterAll(() => tmp.cleanup());

  it('unreachable headers: one clear line, non-zero exit, no output file', async () => {
    const port = await closedPort();
    const out = join(tmp.dir, 'unreachable', 'better_sqlite3.node');
    // npm exports .npmrc's nodedir to scripts and node-gyp would obey it over --target; the
    // script must ignore it, or this would start compiling against Node's headers.
    const env = { ...process.env, npm_config_nodedir: localNodeHeaders() ?? '/usr' };
    const started = Date.now();
    const result = await run(
      [SCRIPT, '--runtime', 'electron', '--target', '45.5.0', '--dist-url', `http://127.0.0.1:${port}`, '--devdir', join(tmp.dir, 'devdir'), '--out', out],
      { env },
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(lastLine(result.stderr)).toMatch(
      new RegExp(
        `^build-native: error: could not download the headers of electron 45\\.5\\.0 ` +
          `\\(GET http://127\\.0\\.0\\.1:${port}/v45\\.5\\.0/node-v45\\.5\\.0-headers\\.tar\\.gz: ECONNREFUSED\\); .*--nodedir DIR`,
      ),
    );
    expect(existsSync(out)).toBe(false);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a bad flag is a usage error (exit 2)', async () => {
    const result = await run([SCRIPT, '--runtime', 'bun']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^build-native: --runtime must be electron or node, not bun\nUsage:/);
  });

  it('--nodedir that holds no headers is refused before compiling', async () => {
    const result = await run([SCRIPT, '--runtime', 'node', '--nodedir', tmp.dir, '--out', join(tmp.dir, 'x.node')]);
    expect(result.code).toBe(1);
    expect(lastLine(result.stderr)).toMatch(/^build-native: error: --nodedir .* has no include\/node\/common\.gypi/);
  });

  const headers = localNodeHeaders();
  it.skipIf(!headers)(
    'builds better-sqlite3 from a copy of its sources into --out, which loads as nativeBinding; node_modules stays as it was',
    async () => {
      const out = join(tmp.dir, 'node-build', 'better_sqlite3.node');
      const started = Date.now();
      const result = await run([SCRIPT, '--runtime', 'node', '--target', process.versions.node, '--nodedir', headers!, '--out', out]);
      const seconds = (Date.now() - started) / 1000;
      expect(result.code, result.stderr.slice(-4000)).toBe(0);
      console.info(`build-native: better-sqlite3 compiled for Node ${process.versions.node} in ${seconds.toFixed(1)} s`);
      expect(lastLine(result.stderr)).toMatch(/^build-native: wrote .*better_sqlite3\.node in [\d.]+ s$/);
      expect(statSync(out).size).toBeGreaterThan(100_000);
      const stamp = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as Record<string, string>;
      expect(stamp).toMatchObject({ runtime: 'node', target: process.versions.node, platform: process.platform, arch: process.arch });

      // A separate Node process opens a real database through the new binary, and only that one.
      const probe = await run(
        [
          '-e',
          `const Database = require('better-sqlite3');
           const db = new Database(process.argv[1], { nativeBinding: process.argv[2] });
           db.exec('create table t (x integer)');
           db.prepare('insert into t values (?), (?)').run(20, 22);
           const row = db.prepare('select sum(x) as total, sqlite_version() as version from t').get();
           db.close();
           const loaded = Object.keys(require.cache).filter((f) => f.endsWith('.node'));
           console.log(JSON.stringify({ row, loaded }));`,
          join(tmp.dir, 'probe.db'),
          out,
        ],
        { cwd: ROOT },
      );
      expect(probe.code, probe.stderr).toBe(0);
      const report = JSON.parse(probe.stdout) as { row: { total: number; version: string }; loaded: string[] };
      expect(report.row.total).toBe(42);
      expect(report.row.version).toMatch(/^3\.\d+\.\d+$/);
      expect(report.loaded).toEqual([out]);

      expect(sha256(NODE_BUILD)).toBe(nodeBuildHash);

      // Built from this better-sqlite3 already: --skip-if-built leaves the file alone.
      const before = statSync(out).mtimeMs;
      const again = await run([SCRIPT, '--runtime', 'node', '--target', process.versions.node, '--nodedir', headers!, '--out', out, '--skip-if-built']);
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/is up to date/);
      expect(statSync(out).mtimeMs).toBe(before);
    },
    600_000,
  );
});
