import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../build/main/core/agents/manifest.js';
import run from '../../../build/main/plugins/python-script/index.js';
import {
  columnFromTopic,
  renderPythonScript,
  scriptKind,
} from '../../../build/main/plugins/python-script/template.js';
import type { AgentContext, ArtifactSpec } from '../../../build/main/shared/plugin-api.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { BUILT_PLUGINS } from './support.js';

const execFileAsync = promisify(execFile);

const SPEC_TOPIC = 'read a local CSV file and calculate the average of the age column';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = makeTempDir('agent-host-python-'));
});
afterAll(() => cleanup());

/**
 * Parses the source with CPython's own parser (throwing with its message when it is not valid
 * Python) and returns the module docstring as Python reads it.
 */
function assertValidPython(source: string): string {
  const program = 'import ast,sys; print(ast.get_docstring(ast.parse(sys.stdin.read())))';
  return execFileSync('python3', ['-c', program], { input: source, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Writes the script for `topic` to the temp dir and runs it with python3. */
async function runScript(topic: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const file = join(dir, `${randomUUID().slice(0, 8)}.py`);
  writeFileSync(file, renderPythonScript(topic, 'script.py').source);
  return execFileAsync('python3', [file, ...args], { timeout: 20_000 });
}

describe('python-script templates', () => {
  it.each([
    [SPEC_TOPIC, 'csv'],
    ["average of the 'Unit Price' column in a TSV export", 'csv'],
    ['fetch https://api.example.com/items?limit=5, then print it', 'http'],
    ['download a web page', 'http'],
    ['parse a JSON config file and show its keys', 'json'],
    ['find the largest files in my Downloads folder', 'directory'],
    ['count the words in a text', 'text'],
    ['He said """hi""" \\ and\nthen {left} ${x} `tick` résumé 数据', 'text'],
    ['four """" quotes and a backslash at the end \\', 'text'],
    ['a topic ending in a quote "', 'text'],
    ['', 'text'],
  ])('writes valid Python for %j (%s template)', (topic, kind) => {
    const script = renderPythonScript(topic, 'my_script.py');
    expect(script.kind).toBe(kind);
    expect(scriptKind(topic)).toBe(kind);
    expect(script.source.startsWith('#!/usr/bin/env python3\n"""')).toBe(true);
    expect(script.source).toContain('def main(argv=None):');
    expect(script.source).toContain('if __name__ == "__main__":');
    expect(script.source).not.toMatch(/TODO|FIXME/);
    expect(script.summary).toContain('my_script.py');
    const docstring = assertValidPython(script.source);
    expect(docstring).toContain(`\nTopic: ${topic.replace(/\s+/g, ' ').trim()}\n`);
  });

  it('finds the column a topic names', () => {
    expect(columnFromTopic(SPEC_TOPIC)).toBe('age');
    expect(columnFromTopic("the mean of the 'Unit Price' column")).toBe('Unit Price');
    expect(columnFromTopic('sum the column named revenue')).toBe('revenue');
    expect(columnFromTopic('average a column of a csv')).toBeUndefined();
  });

  it('averages the named column of a real CSV file (the spec example)', async () => {
    const csv = join(dir, 'people.csv');
    writeFileSync(csv, 'name,age\nAda,36\nGrace,47\nLin,\nBob,unknown\n');
    const { stdout } = await runScript(SPEC_TOPIC, [csv]);
    expect(stdout).toBe('average age: 41.5\nrows used: 2, skipped (empty or not a number): 2\n');
    await expect(runScript(SPEC_TOPIC, [csv, '--column', 'height'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("no column 'height'"),
    });
  });

  it('asks for --column when the topic names none', async () => {
    const csv = join(dir, 'prices.csv');
    writeFileSync(csv, 'item;price\na;1\nb;2\n');
    const topic = 'average some csv column';
    await expect(runScript(topic, [csv])).rejects.toMatchObject({ code: 2 });
    const { stdout } = await runScript(topic, [csv, '--column', 'price', '--delimiter', ';']);
    expect(stdout).toContain('average price: 1.5');
  });

  it('describes a JSON file and prints a value by dotted path', async () => {
    const file = join(dir, 'data.json');
    writeFileSync(file, JSON.stringify({ items: [{ name: 'first' }], total: 1 }));
    const topic = 'load a json file';
    expect((await runScript(topic, [file])).stdout).toBe('object with 2 keys\n  items: array of 1 items\n  total: int: 1\n');
    expect((await runScript(topic, [file, '--key', 'items.0.name'])).stdout).toBe('"first"\n');
  });

  it('fetches a URL and pretty-prints JSON (against a loopback server)', async () => {
    const server: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end('{"ok":true,"n":[1,2]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/items`;
    try {
      const { stdout, stderr } = await runScript(`fetch ${url}.`, []);
      expect(JSON.parse(stdout)).toEqual({ ok: true, n: [1, 2] });
      expect(stdout).toContain('\n  "ok": true');
      expect(stderr).toContain('200 application/json');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lists the largest files of a folder and counts the words of a text', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'small.txt'), 'x');
    writeFileSync(join(folder, 'sub', 'big.txt'), 'y'.repeat(5000));
    const listing = (await runScript('show the largest files in a directory', [folder])).stdout;
    expect(listing.split('\n').slice(0, 3)).toEqual(['    4.9 KB  sub/big.txt', '       1 B  small.txt', '2 files, 4.9 KB in total']);

    const text = join(dir, 'words.txt');
    writeFileSync(text, 'the cat and the hat\nthe end\n');
    const counts = (await runScript('word statistics', [text, '--top', '1'])).stdout;
    expect(counts).toContain(`${text}: 2 lines, 7 words, 28 characters`);
    expect(counts).toContain('       3  the');
  });
});

describe('python-script plugin (fake context)', () => {
  it('creates a text/x-python file artifact and returns its id, filename and summary', async () => {
    const manifest = await readManifest(join(BUILT_PLUGINS, 'python-script'));
    if (!manifest.ok) throw new Error(manifest.reason);
    const { validateInput, validateOutput } = manifest.value;
    const input = { topic: SPEC_TOPIC, filename: 'data_processor.py' };
    expect(validateInput(input)).toBe(true);
    expect(validateInput({ topic: 'x', filename: 'bad name.py' })).toBe(false);

    // FAKE context: records the artifact instead of writing it through a worker.
    const specs: ArtifactSpec[] = [];
    const artifactId = randomUUID();
    const ctx: AgentContext = {
      taskId: randomUUID(),
      signal: new AbortController().signal,
      artifactDir: dir,
      log: () => undefined,
      createArtifact: async (spec) => {
        specs.push(spec);
        return { artifact_id: artifactId, type: spec.type };
      },
      requestInput: async () => ({}),
    };
    const output = await run(input, ctx);
    expect(validateOutput?.(output), JSON.stringify(validateOutput?.errors)).toBe(true);
    expect(output).toMatchObject({ artifact_id: artifactId, filename: 'data_processor.py' });
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatchObject({ type: 'file', filename: 'data_processor.py', mime_type: 'text/x-python' });
    expect(specs[0]?.content).toBe(renderPythonScript(SPEC_TOPIC, 'data_processor.py').source);
    assertValidPython(String(specs[0]?.content));
  });
});
