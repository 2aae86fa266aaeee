import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../build/main/shared/protocol.js';
import { Harness, fixtureAgent, inlineAgent } from './harness.js';

let h: Harness;

beforeEach(() => {
  h = new Harness();
  h.runtime.start();
});

afterEach(async () => {
  await h.close();
});

const HOSTILE_NAMES = [
  '../../etc/passwd',
  'a/../../b.txt',
  '/absolute/path.txt',
  'C:\\Windows\\x.txt',
  'nul\u0000byte.txt',
  '..',
  '.',
  'CON.txt',
  '日本語.md',
  `${'x'.repeat(1000)}.txt`,
  'report.txt',
  'report.txt',
  '.hidden',
  'evil\u202Etxt.exe',
];

describe('logs', () => {
  it('stores 10,000 log lines in order, all before the final status', async () => {
    h.add(fixtureAgent('logs-and-artifacts'));
    const id = h.submit('logs-and-artifacts', { lines: 10_000 });
    expect((await h.waitFor(id, ['COMPLETED', 'FAILED'], 60_000)).status).toBe('COMPLETED');
    const events = h.events(id);
    const lines = events.filter((e): e is TaskEvent<'log'> => e.kind === 'log' && (e.data as { message: string }).message.startsWith('line '));
    expect(lines).toHaveLength(10_000);
    expect(lines.map((e) => e.data.message)).toEqual(Array.from({ length: 10_000 }, (_, i) => `line ${i}`));
    expect(lines.every((e) => e.data.level === 'INFO' && /Z$/.test(e.data.timestamp))).toBe(true);
    const completed = events.find((e) => e.kind === 'status' && (e.data as { status: string }).status === 'COMPLETED')!;
    expect(completed.id).toBeGreaterThan(lines[lines.length - 1]!.id);
  }, 60_000);

  it("turns the plugin's stdout into INFO lines and stderr into WARN lines, cutting overlong lines", async () => {
    h.add(fixtureAgent('prints'));
    const id = h.submit('prints', { long: true });
    expect((await h.waitFor(id, ['COMPLETED', 'FAILED'])).status).toBe('COMPLETED');
    // stdout/stderr arrive on their own pipes; wait for their last line before looking.
    await h.waitForLog(id, (line) => line === 'after the long line');
    const info = h.logLines(id, 'INFO');
    expect(info).toEqual(expect.arrayContaining(['hello from stdout', 'two', 'lines', 'after the long line']));
    expect(h.logLines(id, 'WARN')).toContain('hello from stderr');
    const long = info.find((line) => line.startsWith('xxxx'))!;
    expect(long.length).toBeLessThan(64 * 1024 + 100);
    expect(long).toMatch(/line cut at 65536 characters\]$/);
  });
});

describe('artifacts', () => {
  it('writes files only inside the task folder under safe names, whatever the plugin asks for', async () => {
    h.add(fixtureAgent('logs-and-artifacts'));
    const id = h.submit('logs-and-artifacts', { filenames: HOSTILE_NAMES });
    const done = await h.waitFor(id, ['COMPLETED', 'FAILED']);
    expect(done.status).toBe('COMPLETED');
    const taskDir = path.join(h.artifactsRoot, id);
    const output = done.output as { files: { requested: string; path: string }[]; refused: string[]; artifact_dir: string };
    expect(output.artifact_dir).toBe(taskDir);

    // Every file is a direct child of the task folder and holds what the plugin wrote.
    for (const file of output.files) {
      expect(path.dirname(file.path)).toBe(taskDir);
      expect(readFileSync(file.path, 'utf8')).toBe(`content of ${file.requested}`);
      const name = path.basename(file.path);
      expect(name).not.toMatch(/^[.\s]/);
      expect(name).not.toMatch(/[\\/:*?"<>|\u202e]/);
      expect([...name].some((char) => char.charCodeAt(0) < 0x20)).toBe(false);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(210);
    }
    const names = output.files.map((file) => path.basename(file.path));
    expect(names).toContain('passwd');
    expect(names).toContain('b.txt');
    expect(names).toContain('path.txt');
    expect(names).toContain('x.txt');
    expect(names).toContain('nul_byte.txt');
    expect(names).toContain('_CON.txt');
    expect(names).toContain('日本語.md');
    expect(names).toContain('report.txt');
    expect(names).toContain('report (2).txt');
    expect(names).toContain('hidden');
    expect(names).toContain('eviltxt.exe');
    expect(names.filter((name) => name.startsWith('artifact'))).toHaveLength(2);
    // Nothing escaped: the artifacts root holds only this task's folder, the data dir nothing new.
    expect(readdirSync(h.artifactsRoot)).toEqual([id]);
    expect(existsSync(path.join(h.dir, 'etc'))).toBe(false);
    expect(existsSync(path.join(h.artifactsRoot, 'etc'))).toBe(false);

    const records = h.store.listArtifacts(id);
    const files = records.filter((r) => r.artifact.type === 'file');
    expect(files).toHaveLength(HOSTILE_NAMES.length + 1);
    for (const record of files) {
      expect(record.filePath).toBe(`${id}/${record.artifact.metadata.filename}`);
      expect(record.artifact.metadata.size).toBeGreaterThan(0);
    }
    const byName = new Map(files.map((r) => [r.artifact.metadata.filename, r.artifact.metadata]));
    expect(byName.get('report.txt')?.mime_type).toBe('text/plain');
    expect(byName.get('日本語.md')?.mime_type).toBe('text/markdown');
    expect(byName.get('image.png')).toMatchObject({ mime_type: 'image/png', size: 4 });
    expect(byName.get('passwd')?.mime_type).toBe('application/octet-stream');

    const inline = records.filter((r) => r.artifact.type !== 'file').map((r) => [r.artifact.type, r.artifact.content]);
    expect(inline).toEqual([
      ['text', 'plain text'],
      ['json', '{"nested":[1,2,{"ok":true}]}'],
      ['json', '{"already":"serialised"}'],
      ['log', 'log line one\nlog line two'],
      ['url', 'https://example.com/report'],
    ]);
    expect(output.refused).toEqual([
      'url: url artifacts must be http or https URLs',
      'json: json artifact content is a string that is not valid JSON',
    ]);
    // One artifact event per stored artifact, all before COMPLETED.
    const events = h.events(id);
    const artifactEvents = events.filter((e) => e.kind === 'artifact');
    expect(artifactEvents).toHaveLength(records.length);
    const completedAt = events.find((e) => e.kind === 'status' && (e.data as { status: string }).status === 'COMPLETED')!.id;
    expect(artifactEvents.every((e) => e.id < completedAt)).toBe(true);
  });

  it('refuses artifacts once the task has ended, and removes the file it had written', async () => {
    h.add(inlineAgent(h.dir, 'late-artifact', `export default async function run(_input, ctx) {
  ctx.log('INFO', 'ready');
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
  try {
    await ctx.createArtifact({ type: 'file', filename: 'late.txt', content: 'too late' });
    ctx.log('INFO', 'accepted');
  } catch (err) {
    ctx.log('INFO', 'refused: ' + err.message);
  }
  return {};
}
`));
    const id = h.submit('late-artifact');
    await h.waitForLog(id, (line) => line === 'ready');
    h.service.cancel('late-artifact', id);
    const line = await h.waitForLog(id, (l) => l.startsWith('refused') || l === 'accepted');
    expect(line).toBe('refused: the task is CANCELLED and takes no more artifacts');
    expect(h.store.listArtifacts(id)).toEqual([]);
    expect(existsSync(path.join(h.artifactsRoot, id, 'late.txt'))).toBe(false);
  });

  it('refuses forged file artifacts: unsafe names, and symlinks out of the task folder', async () => {
    const outside = path.join(h.dir, 'secret.txt');
    writeFileSync(outside, 'secret');
    h.add(inlineAgent(h.dir, 'forged-artifact', `import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
const forge = (requestId, file) => new Promise((resolve) => {
  process.on('message', (m) => { if (m.type === 'artifact-ack' && m.requestId === requestId) resolve(m.error ?? m.artifactId); });
  process.send({ type: 'artifact', requestId, artifact: { type: 'file', file } });
});
export default async function run(_input, ctx) {
  symlinkSync(${JSON.stringify(outside)}, join(ctx.artifactDir, 'link.txt'));
  return { traversal: await forge(999998, '../../../etc/passwd'), symlink: await forge(999999, 'link.txt') };
}
`));
    const id = h.submit('forged-artifact');
    const done = await h.waitFor(id, ['COMPLETED', 'FAILED']);
    expect(done.output).toEqual({
      traversal: '"../../../etc/passwd" is not a safe file name',
      symlink: `"link.txt" is outside the task's artifact folder`,
    });
    expect(h.store.listArtifacts(id)).toEqual([]);
  });
});
