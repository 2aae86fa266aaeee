import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MIME_TYPE,
  FALLBACK_FILENAME,
  MAX_FILENAME_BYTES,
  chooseMimeType,
  guessMimeType,
  isValidMimeType,
  relativeArtifactPath,
  resolveInside,
  safeFileName,
  taskArtifactDir,
  withCollisionSuffix,
  writeArtifactFile,
} from '../../../build/main/core/runtime/artifact-files.js';
import { makeTempDir } from '../../support/temp-dir.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

describe('safeFileName', () => {
  it.each([
    ['report.txt', 'report.txt'],
    ['../../etc/passwd', 'passwd'],
    ['a/../../b', 'b'],
    ['a/b/c.txt', 'c.txt'],
    ['/etc/shadow', 'shadow'],
    ['C:\\x', 'x'],
    ['C:\\Windows\\System32\\drivers.sys', 'drivers.sys'],
    ['C:x.txt', 'x.txt'],
    ['\\\\server\\share\\f.txt', 'f.txt'],
    ['dir/', 'dir'],
    ['name\u0000.txt', 'name_.txt'],
    ['\u0000', '_'],
    ['tab\there\nnewline', 'tab_here_newline'],
    ['a<b>c:d"e|f?g*h', 'a_b_c_d_e_f_g_h'],
    ['.bashrc', 'bashrc'],
    ['...hidden.txt', 'hidden.txt'],
    ['trailing. . .', 'trailing'],
    ['  spaced  ', 'spaced'],
    ['CON', '_CON'],
    ['con.txt', '_con.txt'],
    ['Nul.tar.gz', '_Nul.tar.gz'],
    ['COM1', '_COM1'],
    ['lpt9.log', '_lpt9.log'],
    ['CONSOLE.txt', 'CONSOLE.txt'],
    ['日本語.md', '日本語.md'],
    ['Ä.txt', 'Ä.txt'],
    ['e\u0301.txt', '\u00e9.txt'],
    ['gpj.\u202Eexe', 'gpj.exe'],
    ['zero\u200Bwidth', 'zerowidth'],
    ['lone\ud800surrogate', 'lone_surrogate'],
    ['😀.png', '😀.png'],
  ])('%j → %j', (input, expected) => {
    expect(safeFileName(input)).toBe(expected);
  });

  it.each([[''], ['.'], ['..'], ['...'], ['/'], ['\\'], ['../..'], ['./.'], [' '], ['\u202E']])(
    '%j falls back to a fixed name',
    (input) => {
      expect(safeFileName(input)).toBe(FALLBACK_FILENAME);
    },
  );

  it('is never empty, even for values that are not strings', () => {
    for (const value of [undefined, null, 42, {}, ['a.txt']]) expect(safeFileName(value)).toBe(FALLBACK_FILENAME);
  });

  it('caps a 1000-character name at MAX_FILENAME_BYTES and keeps the extension', () => {
    const name = safeFileName(`${'a'.repeat(1000)}.txt`);
    expect(bytes(name)).toBe(MAX_FILENAME_BYTES);
    expect(name.endsWith('.txt')).toBe(true);
  });

  it('caps multi-byte names without splitting a character', () => {
    const name = safeFileName(`${'日'.repeat(400)}.md`);
    expect(bytes(name)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
    expect(name.endsWith('.md')).toBe(true);
    expect(name).toMatch(/^日+\.md$/u);
    const emoji = safeFileName('😀'.repeat(300));
    expect(bytes(emoji)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
    expect(emoji).toMatch(/^(😀)+$/u);
  });

  it('treats an implausibly long "extension" as part of the name', () => {
    const name = safeFileName(`a.${'b'.repeat(500)}`);
    expect(bytes(name)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
    expect(name.startsWith('a.b')).toBe(true);
  });

  it('is idempotent: a safe name stays as it is', () => {
    for (const input of ['../../etc/passwd', 'CON.txt', `${'x'.repeat(1000)}.txt`, '日本語.md', 'a<b>.txt', '..']) {
      const once = safeFileName(input);
      expect(safeFileName(once)).toBe(once);
    }
  });
});

describe('withCollisionSuffix', () => {
  it('numbers before the extension', () => {
    expect(withCollisionSuffix('report.txt', 1)).toBe('report.txt');
    expect(withCollisionSuffix('report.txt', 2)).toBe('report (2).txt');
    expect(withCollisionSuffix('archive.tar.gz', 3)).toBe('archive.tar (3).gz');
    expect(withCollisionSuffix('README', 2)).toBe('README (2)');
  });
});

describe('mime types', () => {
  it.each([
    ['a.txt', 'text/plain'],
    ['a.MD', 'text/markdown'],
    ['a.json', 'application/json'],
    ['a.csv', 'text/csv'],
    ['a.html', 'text/html'],
    ['a.py', 'text/x-python'],
    ['a.js', 'text/javascript'],
    ['a.ts', 'text/x-typescript'],
    ['a.png', 'image/png'],
    ['a.jpg', 'image/jpeg'],
    ['a.gif', 'image/gif'],
    ['a.svg', 'image/svg+xml'],
    ['a.pdf', 'application/pdf'],
    ['a.log', 'text/plain'],
    ['a.xml', 'application/xml'],
    ['a.yaml', 'application/yaml'],
    ['a.zip', 'application/zip'],
    ['a.unknown', DEFAULT_MIME_TYPE],
    ['noextension', DEFAULT_MIME_TYPE],
  ])('%s → %s', (name, mime) => {
    expect(guessMimeType(name)).toBe(mime);
  });

  it('keeps a well-formed given type and replaces a malformed one with a guess', () => {
    expect(isValidMimeType('text/plain; charset=utf-8')).toBe(true);
    expect(chooseMimeType('application/vnd.ms-excel', 'a.csv')).toBe('application/vnd.ms-excel');
    for (const bad of ['text', 'text/plain\r\nX-Injected: 1', '', 'a/b/c', 42, 'x'.repeat(300) + '/y']) {
      expect(isValidMimeType(bad)).toBe(false);
      expect(chooseMimeType(bad, 'a.csv')).toBe('text/csv');
    }
  });
});

describe('task folders', () => {
  it('places a task folder under the root and refuses task ids that are not plain segments', () => {
    expect(taskArtifactDir('/data/artifacts', '123e4567-e89b-12d3-a456-426614174000')).toBe(
      path.resolve('/data/artifacts/123e4567-e89b-12d3-a456-426614174000'),
    );
    for (const bad of ['', '..', '../x', 'a/b', 'a\\b', '.hidden', 'x\u0000']) {
      expect(() => taskArtifactDir('/data/artifacts', bad)).toThrow(/refusing task id/);
    }
    expect(relativeArtifactPath('t1', 'report.txt')).toBe('t1/report.txt');
  });
});

describe('resolveInside', () => {
  let root: string;
  let cleanup: () => void;

  beforeEach(() => {
    const temp = makeTempDir('agent-host-resolve-');
    cleanup = temp.cleanup;
    // The root may itself be reached through a symlink (macOS /var → /private/var): compare real paths.
    root = path.join(realpathSync(temp.dir), 'root');
    mkdirSync(path.join(root, 'task'), { recursive: true });
    writeFileSync(path.join(root, 'task', 'file.txt'), 'x');
    writeFileSync(path.join(temp.dir, 'outside.txt'), 'secret');
  });

  afterEach(() => cleanup());

  it('resolves plain relative paths inside the root, existing or not', () => {
    expect(resolveInside(root, 'task/file.txt')).toBe(path.join(root, 'task', 'file.txt'));
    expect(resolveInside(root, 'task/new.txt')).toBe(path.join(root, 'task', 'new.txt'));
    expect(resolveInside(root, 'task/./file.txt')).toBe(path.join(root, 'task', 'file.txt'));
    expect(resolveInside(root, 'task/sub/../file.txt')).toBe(path.join(root, 'task', 'file.txt'));
    expect(resolveInside(root, 'task\\file.txt')).toBe(path.join(root, 'task', 'file.txt'));
    expect(resolveInside(root, 'missing/deeper/x.txt')).toBe(path.join(root, 'missing', 'deeper', 'x.txt'));
    expect(resolveInside(root, '日本語.md')).toBe(path.join(root, '日本語.md'));
  });

  it.each([
    ['../../etc/passwd'],
    ['a/../../b'],
    ['..'],
    ['../outside.txt'],
    ['task/../../outside.txt'],
    ['task\\..\\..\\outside.txt'],
    ['/etc/passwd'],
    ['\\etc\\passwd'],
    ['C:\\x'],
    ['C:x'],
    ['c:/windows/system32'],
    ['\\\\server\\share'],
    ['task/file.txt\u0000.png'],
    [''],
    ['.'],
    ['./'],
    ['task/..'],
  ])('refuses %j', (relative) => {
    expect(resolveInside(root, relative)).toBeUndefined();
  });

  it('refuses a path whose existing part is a symlink leading out of the root', () => {
    symlinkSync(path.join(root, '..', 'outside.txt'), path.join(root, 'task', 'link.txt'));
    symlinkSync(path.join(root, '..'), path.join(root, 'task', 'up'));
    expect(resolveInside(root, 'task/link.txt')).toBeUndefined();
    expect(resolveInside(root, 'task/up/outside.txt')).toBeUndefined();
    expect(resolveInside(root, 'task/up/not-there-yet.txt')).toBeUndefined();
  });

  it('accepts a symlink that stays inside the root, returning its real target', () => {
    symlinkSync(path.join(root, 'task', 'file.txt'), path.join(root, 'task', 'alias.txt'));
    expect(resolveInside(root, 'task/alias.txt')).toBe(path.join(root, 'task', 'file.txt'));
  });

  it('handles a 1000-character relative name without escaping', () => {
    const long = 'x'.repeat(1000);
    expect(resolveInside(root, `task/${long}`)).toBe(path.join(root, 'task', long));
    expect(resolveInside(root, `${'a/'.repeat(300)}${'../'.repeat(301)}x`)).toBeUndefined();
  });
});

describe('writeArtifactFile', () => {
  let dir: string;
  let cleanup: () => void;

  beforeEach(() => {
    const temp = makeTempDir('agent-host-write-');
    cleanup = temp.cleanup;
    dir = path.join(temp.dir, 'task');
  });

  afterEach(() => cleanup());

  it('creates the folder, writes the bytes, and never overwrites', async () => {
    const first = await writeArtifactFile(dir, '../report.txt', Buffer.from('one'));
    const second = await writeArtifactFile(dir, 'report.txt', Buffer.from('two'));
    const third = await writeArtifactFile(dir, 'sub/report.txt', Buffer.from('three'));
    expect([first.name, second.name, third.name]).toEqual(['report.txt', 'report (2).txt', 'report (3).txt']);
    expect(readFileSync(first.path, 'utf8')).toBe('one');
    expect(readFileSync(third.path, 'utf8')).toBe('three');
    expect(third).toMatchObject({ size: 5, path: path.join(dir, 'report (3).txt') });
    expect(readdirSync(dir).sort()).toEqual(['report (2).txt', 'report (3).txt', 'report.txt']);
  });

  it('does not follow a symlink planted under the chosen name', async () => {
    mkdirSync(dir, { recursive: true });
    const target = path.join(dir, '..', 'victim.txt');
    writeFileSync(target, 'original');
    symlinkSync(target, path.join(dir, 'data.txt'));
    const written = await writeArtifactFile(dir, 'data.txt', Buffer.from('payload'));
    expect(written.name).toBe('data (2).txt');
    expect(readFileSync(target, 'utf8')).toBe('original');
  });

  it('writes concurrent files with the same name to distinct paths', async () => {
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => writeArtifactFile(dir, 'same.txt', Buffer.from(String(i)))));
    expect(new Set(all.map((w) => w.name)).size).toBe(20);
    for (const w of all) expect(readFileSync(w.path, 'utf8')).toBe(String(all.indexOf(w)));
  });
});
