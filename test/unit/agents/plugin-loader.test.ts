import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgentCard, validateAgentCard } from '../../../build/main/core/agents/agent-card.js';
import {
  BUILTIN_PLUGINS_DIR,
  loadPlugins,
  pluginDirs,
  type LoadPluginsOptions,
} from '../../../build/main/core/agents/plugin-loader.js';
import type { PluginLoadError } from '../../../build/main/core/agents/loaded-agent.js';
import { BUILT_PLUGINS, sandbox, stagePlugins, writePlugin, type Sandbox } from './support.js';

const FIXTURE_CASES = [
  '.hidden',
  'bad-input-schema',
  'default-not-function',
  'entry-escape',
  'exits-on-import',
  'hangs-on-import',
  'malformed-json',
  'missing-field',
  'no-default-export',
  'no-manifest',
  'throws-on-import',
  'valid',
  'valid-duplicate',
];

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

function load(options: Partial<LoadPluginsOptions> & Pick<LoadPluginsOptions, 'dirs'>) {
  return loadPlugins({ store: box.store, ...options });
}

function errorFor(errors: PluginLoadError[], folder: string): PluginLoadError {
  const found = errors.filter((e) => basename(e.dir) === folder);
  expect(found, `exactly one error for ${folder}: ${JSON.stringify(errors)}`).toHaveLength(1);
  return found[0]!;
}

describe('loadPlugins with broken fixture plugins', () => {
  it('reports each broken plugin with its reason, skips it, and still loads the good one', async () => {
    const root = stagePlugins(join(box.dir, 'plugins'), FIXTURE_CASES);
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const { agents, errors } = await load({
      dirs: [{ path: root, source: 'cli' }],
      logger,
      // Short enough to keep the test quick, long enough for a healthy probe on a busy machine.
      probe: { timeoutMs: 5000 },
    });

    expect(agents.map((a) => [a.slug, basename(a.dir)])).toEqual([['valid-agent', 'valid']]);
    const at = (folder: string) => errorFor(errors, folder).reason;
    expect(at('malformed-json')).toMatch(/malformed-json\/agent\.json: malformed JSON: /);
    expect(at('missing-field')).toMatch(/missing-field\/agent\.json: missing required field "description"/);
    expect(at('bad-input-schema')).toMatch(/input_schema is not a valid JSON Schema: .*properties\/text\/type/);
    expect(at('entry-escape')).toMatch(/entry "\.\.\/valid\/index\.js" must stay inside the plugin folder/);
    expect(at('throws-on-import')).toMatch(/throws-on-import\/index\.js: entry failed to import: Error: boom at import time/);
    expect(at('hangs-on-import')).toMatch(/hangs-on-import\/index\.js: entry did not finish importing within 5 s$/);
    expect(at('exits-on-import')).toMatch(/exits-on-import\/index\.js: entry ended the process with exit code 3 while importing/);
    expect(at('no-default-export')).toMatch(/entry has no default export/);
    expect(at('default-not-function')).toMatch(/default export is an object, not the function run\(input, ctx\)/);
    expect(at('no-manifest')).toMatch(/no-manifest has no agent\.json/);
    const duplicate = errorFor(errors, 'valid-duplicate');
    expect(duplicate.slug).toBe('valid-agent');
    expect(duplicate.reason).toContain(join(root, 'valid-duplicate'));
    expect(duplicate.reason).toContain(`already used by ${join(root, 'valid')},`);
    expect(errors.some((e) => e.dir.includes('.hidden'))).toBe(false);
    expect(errors).toHaveLength(FIXTURE_CASES.length - 2);
    expect(errorFor(errors, 'throws-on-import').slug).toBe('throws-on-import');

    const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((l) => l.level === 40);
    expect(warnings).toHaveLength(errors.length);
    expect(warnings.every((w) => w.msg.startsWith('plugin skipped: '))).toBe(true);
  });

  it('reports a top-level await that never settles', async () => {
    const dir = writePlugin(join(box.dir, 'plugins', 'stuck'), { slug: 'stuck' }, 'await new Promise(() => {});\nexport default () => ({});\n');
    const { agents, errors } = await load({ dirs: [{ path: join(dir, '..'), source: 'cli' }] });
    expect(agents).toEqual([]);
    expect(errors[0]?.reason).toMatch(/a top-level await never settled/);
  });

  it('runs the probe under the manifest heap limit and reports running out of memory', async () => {
    const hog = 'const hoard = [];\nfor (;;) hoard.push(new Array(1e5).fill(hoard.length));\nexport default () => ({});\n';
    const dir = writePlugin(join(box.dir, 'plugins', 'hog'), { slug: 'hog', memory_limit_mb: 32 }, hog);
    const { errors } = await load({ dirs: [{ path: join(dir, '..'), source: 'cli' }], probe: { timeoutMs: 20_000 } });
    expect(errors.map((e) => e.reason)).toEqual([expect.stringMatching(/entry ran out of memory while importing \(heap limit 32 MB\)/)]);
  });

  it('probes two plugins at a time', async () => {
    const root = join(box.dir, 'plugins');
    const log = join(box.dir, 'probe-log');
    writeFileSync(log, '');
    for (let i = 0; i < 5; i++) {
      writePlugin(
        join(root, `slow-${i}`),
        { slug: `slow-${i}` },
        `import { appendFileSync } from 'node:fs';
const start = Date.now();
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
appendFileSync(${JSON.stringify(log)}, JSON.stringify([start, Date.now()]) + '\\n');
export default () => ({});
`,
      );
    }
    const { agents } = await load({ dirs: [{ path: root, source: 'cli' }] });
    expect(agents).toHaveLength(5);
    const spans = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as [number, number]);
    const overlapAt = (t: number) => spans.filter(([s, e]) => s <= t && t < e).length;
    const most = Math.max(...spans.map(([start]) => overlapAt(start)));
    expect(most).toBe(2);
  });
});

describe('plugin folders', () => {
  it('accepts a missing data-dir plugins folder but reports a missing or non-folder --plugins DIR', async () => {
    const file = join(box.dir, 'not-a-folder');
    writeFileSync(file, '');
    const { agents, errors } = await load({
      dirs: [
        { path: join(box.dir, 'data', 'plugins'), source: 'data-dir' },
        { path: join(box.dir, 'nowhere'), source: 'cli' },
        { path: file, source: 'cli' },
      ],
    });
    expect(agents).toEqual([]);
    expect(errors.map((e) => e.reason)).toEqual([
      `--plugins folder ${join(box.dir, 'nowhere')} does not exist`,
      `--plugins folder ${file} is not a folder`,
    ]);
  });

  it('scans built-in, data-dir and --plugins folders in that order; the first slug wins', async () => {
    const dataDir = join(box.dir, 'data');
    writePlugin(join(dataDir, 'plugins', 'my-echo'), { slug: 'echo' });
    writePlugin(join(dataDir, 'plugins', 'mine'), { slug: 'mine' });
    writePlugin(join(box.dir, 'extra', 'mine-again'), { slug: 'mine' });
    const dirs = pluginDirs(dataDir, [join(box.dir, 'extra')]);
    expect(dirs.map((d) => d.source)).toEqual(['builtin', 'data-dir', 'cli']);
    const { agents, errors } = await load({ dirs });
    expect(agents.map((a) => `${a.source}:${a.slug}`)).toEqual(['builtin:echo', 'builtin:python-script', 'data-dir:mine']);
    expect(errors.map((e) => [e.slug, basename(e.dir)])).toEqual([
      ['echo', 'my-echo'],
      ['mine', 'mine-again'],
    ]);
    expect(errors[0]?.reason).toContain(`already used by ${join(BUILTIN_PLUGINS_DIR, 'echo')},`);
  });
});

describe('agent ids', () => {
  it('stay the same across loads, a fresh store on the same database, and removing and re-adding the plugin', async () => {
    const root = join(box.dir, 'plugins');
    const dirs = [{ path: root, source: 'data-dir' as const }];
    stagePlugins(root, ['valid']);
    const first = (await load({ dirs })).agents[0]?.agentId;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect((await loadPlugins({ dirs, store: box.reopen() })).agents[0]?.agentId).toBe(first);

    rmSync(join(root, 'valid'), { recursive: true });
    expect((await load({ dirs })).agents).toEqual([]);
    stagePlugins(root, ['valid']);
    expect((await loadPlugins({ dirs, store: box.reopen() })).agents[0]?.agentId).toBe(first);

    // Another host (another database) assigns its own id: the id is not derived from the slug.
    const other = sandbox();
    try {
      expect((await loadPlugins({ dirs, store: other.store })).agents[0]?.agentId).not.toBe(first);
    } finally {
      other.cleanup();
    }
  });

  it('use the manifest agent_id when given, and refuse a second plugin claiming the same one', async () => {
    const root = join(box.dir, 'plugins');
    const id = '0b7e6a4c-9a55-4d1e-8f0e-5d2f1c3a4b5c';
    writePlugin(join(root, 'a'), { slug: 'a', agent_id: id });
    writePlugin(join(root, 'b'), { slug: 'b', agent_id: id.toUpperCase() });
    const { agents, errors } = await load({ dirs: [{ path: root, source: 'cli' }] });
    expect(agents.map((a) => [a.slug, a.agentId])).toEqual([['a', id]]);
    expect(errors).toEqual([{ dir: join(root, 'b'), slug: 'b', reason: `agent_id ${id} is already used by "a" in ${join(root, 'a')}` }]);
  });
});

describe('settings', () => {
  it('take enabled, concurrency and notification_config from settings over the manifest', async () => {
    const root = stagePlugins(join(box.dir, 'plugins'), ['valid']);
    writePlugin(join(root, 'plain'), { slug: 'plain' });
    const dirs = [{ path: root, source: 'cli' as const }];

    const defaults = await load({ dirs });
    const byDefault = Object.fromEntries(defaults.agents.map((a) => [a.slug, a]));
    expect(byDefault['valid-agent']).toMatchObject({ enabled: true, concurrency: 3 });
    expect(byDefault['valid-agent']?.notificationConfig).toBeUndefined();
    expect(byDefault.plain).toMatchObject({ enabled: true, concurrency: 1 });

    const notification_config = { endpoint_url: 'https://orchestrator.example/hooks', auth_header: 'Authorization: Bearer t' };
    const configured = await load({
      dirs,
      settings: { 'valid-agent': { enabled: false, concurrency: 7, notification_config }, plain: { concurrency: 2 } },
    });
    const bySlug = Object.fromEntries(configured.agents.map((a) => [a.slug, a]));
    expect(bySlug['valid-agent']).toMatchObject({ enabled: false, concurrency: 7, notificationConfig: notification_config });
    expect(bySlug.plain).toMatchObject({ enabled: true, concurrency: 2 });
    expect(buildAgentCard(bySlug['valid-agent']!).notification_config).toEqual({ ...notification_config, auth_header: 'Authorization: [redacted]' });
  });
});

describe('built-in plugins', () => {
  it('load from build/main/plugins, and every card validates against the spec schema', async () => {
    expect(BUILTIN_PLUGINS_DIR.replace(/\/$/, '')).toBe(BUILT_PLUGINS.replace(/\/$/, ''));
    const { agents, errors } = await load({ dirs: pluginDirs(join(box.dir, 'data')) });
    expect(errors).toEqual([]);
    expect(agents.map((a) => a.slug)).toEqual(['echo', 'python-script']);
    for (const agent of agents) {
      const card = buildAgentCard(agent);
      expect(validateAgentCard(card), JSON.stringify(validateAgentCard.errors)).toBe(true);
      expect(card.agent_id).toBe(agent.agentId);
      expect(card.output_schema).toEqual(agent.manifest.output_schema);
    }
    const echo = agents.find((a) => a.slug === 'echo')!;
    expect(echo).toMatchObject({ concurrency: 4, manifest: { rerun_safe: true }, source: 'builtin' });
    expect(echo.entryPath).toBe(join(BUILT_PLUGINS, 'echo', 'index.js'));
  });
});
