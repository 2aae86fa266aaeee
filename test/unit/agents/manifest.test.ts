import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifest } from '../../../build/main/core/agents/manifest.js';
import { createSchemaCompiler } from '../../../build/main/core/agents/plugin-schemas.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { writePlugin } from './support.js';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir: root, cleanup } = makeTempDir('agent-host-manifest-'));
});
afterEach(() => cleanup());

async function reasonFor(manifest: Record<string, unknown>): Promise<string> {
  const dir = writePlugin(join(root, 'plugin'), manifest);
  const result = await readManifest(dir);
  if (result.ok) throw new Error('expected the manifest to be rejected');
  expect(result.reason.startsWith(`${join(dir, 'agent.json')}: `)).toBe(true);
  return result.reason;
}

describe('readManifest', () => {
  it('accepts a valid manifest, fills in defaults and compiles its schemas', async () => {
    const dir = writePlugin(join(root, 'plugin'), {
      output_schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      agent_id: 'F47AC10B-58CC-4372-A567-0E02B2C3D479',
    });
    const result = await readManifest(dir);
    if (!result.ok) throw new Error(result.reason);
    const { manifest, entryPath, validateInput, validateOutput } = result.value;
    expect(manifest.concurrency).toBe(1);
    expect(manifest.rerun_safe).toBe(false);
    expect(manifest.agent_id).toBe('f47ac10b-58cc-4372-a567-0e02b2c3d479');
    expect(entryPath).toBe(join(dir, 'index.js'));
    expect(validateInput({ text: 'hi' })).toBe(true);
    expect(validateInput({ text: 3 })).toBe(false);
    expect(validateOutput?.({ n: 1 })).toBe(true);
    expect(validateOutput?.({})).toBe(false);
  });

  it('reports malformed JSON with the parser message', async () => {
    const dir = join(root, 'plugin');
    mkdirSync(dir);
    writeFileSync(join(dir, 'agent.json'), '{ "slug": "x", }');
    const result = await readManifest(dir);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/agent\.json: malformed JSON: .+/);
  });

  it('accepts a manifest saved with a byte-order mark', async () => {
    const dir = writePlugin(join(root, 'plugin'));
    const file = join(dir, 'agent.json');
    const { readFileSync } = await import('node:fs');
    writeFileSync(file, `\uFEFF${readFileSync(file, 'utf8')}`);
    expect((await readManifest(dir)).ok).toBe(true);
  });

  it('rejects a manifest that is not an object', async () => {
    const dir = join(root, 'plugin');
    mkdirSync(dir);
    writeFileSync(join(dir, 'agent.json'), '["echo"]');
    const result = await readManifest(dir);
    expect(!result.ok && result.reason).toMatch(/expected a JSON object/);
  });

  it.each([
    ['missing field', { description: undefined }, /missing required field "description"/],
    ['unknown key', { colour: 'blue' }, /unknown field "colour"/],
    ['bad slug', { slug: 'Echo Agent' }, /slug must be 1-63 characters of lowercase letters/],
    ['slug too long', { slug: 'a'.repeat(64) }, /slug must be 1-63 characters/],
    ['empty display_name', { display_name: '  ' }, /display_name must not be empty/],
    ['short description', { description: 'short' }, /description must be at least 10 characters/],
    ['capabilities not strings', { capabilities: ['ok', 3] }, /capabilities\[1\] must be string/],
    ['empty input_schema', { input_schema: {} }, /input_schema must have at least one property/],
    ['input_schema not an object', { input_schema: 'text' }, /input_schema must be object/],
    ['input_schema of a string', { input_schema: { type: 'string' } }, /input_schema must describe a JSON object/],
    [
      'input_schema invalid',
      { input_schema: { type: 'object', properties: { a: { type: 'strin' } } } },
      /input_schema is not a valid JSON Schema: schema is invalid/,
    ],
    ['output_schema invalid', { output_schema: { type: 'object', required: 'a' } }, /output_schema is not a valid JSON Schema/],
    ['version missing', { version: undefined }, /missing required field "version"/],
    ['concurrency zero', { concurrency: 0 }, /concurrency must be >= 1/],
    ['concurrency too high', { concurrency: 65 }, /concurrency must be <= 64/],
    ['concurrency fractional', { concurrency: 1.5 }, /concurrency must be integer/],
    ['rerun_safe not boolean', { rerun_safe: 'yes' }, /rerun_safe must be boolean/],
    ['agent_id not a uuid', { agent_id: 'agent-1' }, /agent_id must be a UUID/],
    ['timeout_ms zero', { timeout_ms: 0 }, /timeout_ms must be >= 1/],
    ['memory_limit_mb too small', { memory_limit_mb: 16 }, /memory_limit_mb must be >= 32/],
    ['memory_limit_mb too large', { memory_limit_mb: 20000 }, /memory_limit_mb must be <= 16384/],
    ['absolute entry', { entry: '/etc/passwd' }, /entry must be a path relative to the plugin folder/],
    ['entry escaping', { entry: '../other/index.js' }, /entry "..\/other\/index.js" must stay inside the plugin folder/],
    ['entry missing', { entry: 'dist/main.js' }, /entry "dist\/main.js" does not exist/],
    ['entry is the folder', { entry: '.' }, /entry "." must stay inside the plugin folder/],
  ])('rejects %s', async (_name, manifest, expected) => {
    expect(await reasonFor(manifest)).toMatch(expected);
  });

  it('lists every problem at once and names the slug it found', async () => {
    const dir = writePlugin(join(root, 'plugin'), { slug: 'two-problems', description: 'short', concurrency: 0 });
    const result = await readManifest(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.slug).toBe('two-problems');
    expect(result.reason).toMatch(/description must be at least 10 characters.*; concurrency must be >= 1/);
  });

  it('rejects an entry that is a link to a file outside the plugin folder', async () => {
    const outside = join(root, 'outside.js');
    writeFileSync(outside, 'export default () => ({});\n');
    const dir = writePlugin(join(root, 'plugin'), { entry: 'linked.js' });
    symlinkSync(outside, join(dir, 'linked.js'));
    const result = await readManifest(dir);
    expect(!result.ok && result.reason).toMatch(/entry "linked.js" is a link to a file outside the plugin folder/);
  });

  it('accepts an entry in a subfolder', async () => {
    const dir = writePlugin(join(root, 'plugin'), { entry: 'dist/index.js' });
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.js'), 'export default () => ({});\n');
    const result = await readManifest(dir);
    expect(result.ok && result.value.entryPath).toBe(join(dir, 'dist', 'index.js'));
  });

  it('lets two plugins and two loads use the same $id (one compiler per load)', async () => {
    const schema = {
      $id: 'https://example.com/schemas/input.json',
      type: 'object',
      properties: { text: { $ref: '#/definitions/text' } },
      definitions: { text: { type: 'string' } },
    };
    const a = writePlugin(join(root, 'a'), { slug: 'a', input_schema: schema });
    const b = writePlugin(join(root, 'b'), { slug: 'b', input_schema: { ...schema, required: ['text'] } });
    const compile = createSchemaCompiler();
    const first = await readManifest(a, compile);
    const second = await readManifest(b, compile);
    const again = await readManifest(a, createSchemaCompiler());
    for (const result of [first, second, again]) if (!result.ok) throw new Error(result.reason);
    if (!second.ok) return;
    expect(second.value.validateInput({})).toBe(false);
    expect(second.value.validateInput({ text: 'x' })).toBe(true);
  });
});
