import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../../build/main/shared/protocol.js';
import { errorOf, startServer, type ServerFixture } from './server-fixture.js';

let s: ServerFixture;
let task: Task;
beforeAll(async () => {
  s = await startServer();
  task = s.taskIn('echo', 'WORKING');
});
afterAll(async () => {
  await s.close();
});

const contentPath = (artifactId: string, slug = 'echo'): string => `/agents/${slug}/artifacts/${artifactId}/content`;
const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

describe('file artifacts', () => {
  const bytes = Buffer.from('0123456789abcdefghij');
  let id: string;
  beforeAll(() => {
    id = s.addFileArtifact(task.task_id, `${task.task_id}/data.bin`, bytes, { filename: 'résumé "final".txt', mimeType: 'text/csv' }).artifact.artifact_id;
  });

  it('streams the file with its stored type, length, range support and safety headers', async () => {
    const res = await s.raw(contentPath(id));
    expect(res.status).toBe(200);
    expect(res.body.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('text/csv');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="r_sum_ _final_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.txt`,
    );
    expect(res.headers['etag']).toMatch(/^W\/".+"$/);
    expect(res.headers['last-modified']).toBeDefined();
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await s.raw(contentPath(id), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['content-type']).toBe('text/csv');
    expect(res.body.length).toBe(0);
  });

  it('serves single byte ranges with 206 and exactly those bytes', async () => {
    const cases: Array<[string, string, string]> = [
      ['bytes=2-5', '2345', 'bytes 2-5/20'],
      ['bytes=15-', 'fghij', 'bytes 15-19/20'],
      ['bytes=-3', 'hij', 'bytes 17-19/20'],
      ['bytes=18-100', 'ij', 'bytes 18-19/20'],
      ['bytes=0-0', '0', 'bytes 0-0/20'],
    ];
    for (const [range, expected, contentRange] of cases) {
      const res = await s.raw(contentPath(id), { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(res.text, range).toBe(expected);
      expect(res.headers['content-range'], range).toBe(contentRange);
      expect(res.headers['content-length'], range).toBe(String(expected.length));
    }
  });

  it('answers an unsatisfiable range with 416 RANGE_NOT_SATISFIABLE and the file size', async () => {
    const res = await s.raw(contentPath(id), { headers: { range: 'bytes=20-30' } });
    expect(res.status).toBe(416);
    expect(errorOf(res).code).toBe('RANGE_NOT_SATISFIABLE');
    expect(res.headers['content-range']).toBe('bytes */20');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers a conditional GET with the current ETag with 304 and no body', async () => {
    const first = await s.raw(contentPath(id));
    const res = await s.raw(contentPath(id), { headers: { 'if-none-match': String(first.headers['etag']) } });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
  });

  it('streams a 5 MB file intact, and a range deep inside it', async () => {
    const big = randomBytes(5 * 1024 * 1024);
    const artifact = s.addFileArtifact(task.task_id, `${task.task_id}/big.bin`, big);
    const res = await s.raw(contentPath(artifact.artifact.artifact_id));
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(big.length));
    expect(res.body.length).toBe(big.length);
    expect(sha256(res.body)).toBe(sha256(big));
    const start = 4 * 1024 * 1024 + 7;
    const part = await s.raw(contentPath(artifact.artifact.artifact_id), { headers: { range: `bytes=${start}-${start + 99_999}` } });
    expect(part.status).toBe(206);
    expect(part.body.equals(big.subarray(start, start + 100_000))).toBe(true);
  });

  it('falls back to application/octet-stream for a stored type that is not a plain media type', async () => {
    const artifact = s.addFileArtifact(task.task_id, `${task.task_id}/odd.bin`, 'x', { mimeType: 'text/html\u0000<script>' });
    const res = await s.raw(contentPath(artifact.artifact.artifact_id));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it('serves active types only as sandboxed, non-sniffed attachments', async () => {
    const artifact = s.addFileArtifact(task.task_id, `${task.task_id}/page.html`, '<script>alert(1)</script>', { mimeType: 'text/html' });
    const res = await s.raw(contentPath(artifact.artifact.artifact_id));
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['content-disposition']).toMatch(/^attachment; /);
  });

  it('serves file names that look like dotfiles or need encoding', async () => {
    const artifact = s.addFileArtifact(task.task_id, `${task.task_id}/.hidden %41#?.txt`, 'dot', { filename: '.hidden %41#?.txt' });
    const res = await s.raw(contentPath(artifact.artifact.artifact_id));
    expect(res.status).toBe(200);
    expect(res.text).toBe('dot');
  });
});

describe('file artifacts that must not be served', () => {
  it('answers a file that is gone from disk with 404 ARTIFACT_NOT_FOUND saying so', async () => {
    const artifact = s.addFileArtifact(task.task_id, `${task.task_id}/gone.txt`, 'soon gone');
    rmSync(join(s.artifactsRoot, task.task_id, 'gone.txt'));
    const res = await s.raw(contentPath(artifact.artifact.artifact_id));
    expect(res.status).toBe(404);
    const error = errorOf(res);
    expect(error.code).toBe('ARTIFACT_NOT_FOUND');
    expect(error.message).toMatch(/gone/);
  });

  it('refuses stored paths and symlinks that lead outside the artifacts folder', async () => {
    const secret = join(s.tempDir, 'secret.txt');
    writeFileSync(secret, 'TOP SECRET');
    mkdirSync(join(s.artifactsRoot, task.task_id), { recursive: true });
    symlinkSync(secret, join(s.artifactsRoot, task.task_id, 'link.txt'));
    const escapes = [
      s.store.addArtifact({ taskId: task.task_id, type: 'file', filePath: '../secret.txt', filename: 'a', mimeType: 'text/plain' }),
      s.store.addArtifact({ taskId: task.task_id, type: 'file', filePath: `${task.task_id}/../../secret.txt`, filename: 'a', mimeType: 'text/plain' }),
      s.store.addArtifact({ taskId: task.task_id, type: 'file', filePath: secret, filename: 'a', mimeType: 'text/plain' }),
      s.store.addArtifact({ taskId: task.task_id, type: 'file', filePath: `${task.task_id}/link.txt`, filename: 'a', mimeType: 'text/plain' }),
      s.store.addArtifact({ taskId: task.task_id, type: 'file', filePath: '.', filename: 'a', mimeType: 'text/plain' }),
    ];
    for (const artifact of escapes) {
      const res = await s.raw(contentPath(artifact.artifact.artifact_id));
      expect(res.status, artifact.filePath).toBe(404);
      expect(errorOf(res).code).toBe('ARTIFACT_NOT_FOUND');
      expect(res.text).not.toContain('TOP SECRET');
    }
    expect(s.logLines.filter((line) => line.includes('outside the artifacts folder'))).toHaveLength(escapes.length);
  });

  it('answers a stored path that is a directory as gone', async () => {
    mkdirSync(join(s.artifactsRoot, task.task_id, 'adir'), { recursive: true });
    const artifact = s.store.addArtifact({ taskId: task.task_id, type: 'file', filePath: `${task.task_id}/adir`, filename: 'a', mimeType: 'text/plain' });
    const res = await s.raw(contentPath(artifact.artifact.artifact_id));
    expect(res.status).toBe(404);
    expect(errorOf(res).code).toBe('ARTIFACT_NOT_FOUND');
  });

  it('treats unknown ids and another agent\'s artifacts as unknown', async () => {
    const otherTask = s.taskIn('other', 'WORKING');
    const theirs = s.addFileArtifact(otherTask.task_id, `${otherTask.task_id}/x.txt`, 'theirs');
    for (const path of [contentPath(theirs.artifact.artifact_id), contentPath('00000000-0000-4000-8000-000000000000'), contentPath('nope')]) {
      const res = await s.raw(path);
      expect(res.status, path).toBe(404);
      expect(errorOf(res).code).toBe('ARTIFACT_NOT_FOUND');
    }
    expect((await s.raw(contentPath(theirs.artifact.artifact_id, 'other'))).text).toBe('theirs');
    const unknownAgent = await s.raw(contentPath(theirs.artifact.artifact_id, 'nope'));
    expect(errorOf(unknownAgent).code).toBe('AGENT_NOT_FOUND');
  });
});

describe('other artifact types', () => {
  it('returns text, log and url content as UTF-8 text and json as JSON, sandboxed', async () => {
    const cases = [
      { type: 'text' as const, content: 'héllo\nworld', contentType: 'text/plain; charset=utf-8' },
      { type: 'log' as const, content: '[INFO] started', contentType: 'text/plain; charset=utf-8' },
      { type: 'url' as const, content: 'https://example.com/report', contentType: 'text/plain; charset=utf-8' },
      { type: 'json' as const, content: '{"rows":[1,2,3],"ok":true}', contentType: 'application/json; charset=utf-8' },
    ];
    for (const c of cases) {
      const artifact = s.store.addArtifact({ taskId: task.task_id, type: c.type, content: c.content });
      const res = await s.raw(contentPath(artifact.artifact.artifact_id));
      expect(res.status, c.type).toBe(200);
      expect(res.text, c.type).toBe(c.content);
      expect(res.headers['content-type'], c.type).toBe(c.contentType);
      expect(res.headers['content-length'], c.type).toBe(String(Buffer.byteLength(c.content)));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe('sandbox');
      const head = await s.raw(contentPath(artifact.artifact.artifact_id), { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
    }
  });
});
