/**
 * Safe naming and placement of artifact files, shared by the worker (which writes them) and the
 * host (which registers and later serves them). Files live at `<artifactsRoot>/<task_id>/<name>`.
 */
import { constants as fsConstants, realpathSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';

/** Longest safe name in UTF-8 bytes; leaves room for a ` (N)` suffix under common 255-byte limits. */
export const MAX_FILENAME_BYTES = 200;
/** The name used when nothing usable is left of a plugin's filename. */
export const FALLBACK_FILENAME = 'artifact';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
// Control characters, Windows-forbidden characters and path separators become `_`.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*]/g;
// Invisible format characters (bidi overrides, zero-width) can disguise an extension: drop them.
const INVISIBLE_CHARS = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const MAX_EXTENSION_BYTES = 16;

const MIME_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  py: 'text/x-python',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  zip: 'application/zip',
};
export const DEFAULT_MIME_TYPE = 'application/octet-stream';
const MIME_SHAPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;\s*[a-z0-9_.-]+=("[^"\r\n]*"|[a-z0-9_.+-]+))*$/i;

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = utf8Length(char);
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out;
}

/** Leading dots would hide the file (or mean `.`/`..`); trailing dots and spaces vanish on Windows. */
function trimEdges(text: string): string {
  return text.replace(/^[\s.]+/u, '').replace(/[\s.]+$/u, '');
}

/** Splits off a short, plain extension (`.txt`), which survives length capping. */
function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, ext: '' };
  const ext = name.slice(dot);
  if (utf8Length(ext) > MAX_EXTENSION_BYTES || !/^\.[\p{L}\p{N}_-]+$/u.test(ext)) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext };
}

/**
 * Reduces any plugin-given filename to a safe base name: no directories, no `..`, no control,
 * invisible or Windows-forbidden characters, no reserved Windows device names, no leading dots,
 * at most MAX_FILENAME_BYTES (the extension is kept), never empty.
 */
export function safeFileName(raw: unknown): string {
  let name = typeof raw === 'string' ? raw : '';
  name = name.replace(LONE_SURROGATES, '_').normalize('NFC').replace(INVISIBLE_CHARS, '');
  // Keep only the last path segment, whichever separator the plugin's platform uses.
  const segments = name.split(/[/\\]/).filter((segment) => trimEdges(segment) !== '');
  name = segments[segments.length - 1] ?? '';
  // A drive prefix such as `C:` left in the last segment (`C:x.txt`) is dropped, not kept as `C_`.
  name = name.replace(/^[A-Za-z]:/, '');
  name = trimEdges(name.replace(FORBIDDEN_CHARS, '_'));
  // Windows treats `CON`, `con.txt` and `Con .tar.gz` alike: the part before the first dot counts.
  if (WINDOWS_RESERVED.test(trimEdges(name.split('.')[0] ?? ''))) name = `_${name}`;
  const { ext } = splitExtension(name);
  let { stem } = splitExtension(name);
  if (utf8Length(stem + ext) > MAX_FILENAME_BYTES) {
    stem = trimEdges(truncateUtf8(stem, MAX_FILENAME_BYTES - utf8Length(ext)));
  }
  name = trimEdges(stem + ext);
  return name === '' ? FALLBACK_FILENAME : name;
}

/** `report.txt`, 2 → `report (2).txt`. */
export function withCollisionSuffix(name: string, n: number): string {
  if (n <= 1) return name;
  const { stem, ext } = splitExtension(name);
  return `${stem} (${n})${ext}`;
}

/** The mime type for a filename's extension, or application/octet-stream. */
export function guessMimeType(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return DEFAULT_MIME_TYPE;
  return MIME_TYPES[filename.slice(dot + 1).toLowerCase()] ?? DEFAULT_MIME_TYPE;
}

/** Whether a plugin-given mime type is a plain `type/subtype[; param=value]` that is safe to send. */
export function isValidMimeType(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 255 && MIME_SHAPE.test(value);
}

/** The plugin's mime type if it is well formed, else a guess from the filename. */
export function chooseMimeType(given: unknown, filename: string): string {
  return isValidMimeType(given) ? given : guessMimeType(filename);
}

/** Task ids are store-made UUIDs; anything else must never become a path segment. */
export function isSafeTaskId(taskId: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(taskId);
}

/** `<artifactsRoot>/<task_id>`. Throws for a task id that is not a plain path segment. */
export function taskArtifactDir(artifactsRoot: string, taskId: string): string {
  if (!isSafeTaskId(taskId)) throw new Error(`refusing task id ${JSON.stringify(taskId)} as a folder name`);
  return path.join(path.resolve(artifactsRoot), taskId);
}

/** The artifact's path relative to the artifacts root, as the store keeps it (`/`-separated). */
export function relativeArtifactPath(taskId: string, fileName: string): string {
  return `${taskId}/${fileName}`;
}

function isStrictlyInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The absolute path of `relative` under `root`, or undefined when it would escape `root` (or is
 * `root` itself). Absolute paths, drive letters, NUL and empty input are refused. Existing parts
 * are resolved with realpath, so a symlink pointing out of `root` is refused too; the returned
 * path is the real one. Backslashes count as separators on every platform.
 */
export function resolveInside(root: string, relative: string): string | undefined {
  if (typeof relative !== 'string' || relative === '' || relative.includes('\0')) return undefined;
  const normalised = relative.replace(/\\/g, '/');
  if (normalised.startsWith('/') || /^[A-Za-z]:/.test(normalised)) return undefined;
  const lexicalRoot = path.resolve(root);
  const candidate = path.resolve(lexicalRoot, normalised);
  if (!isStrictlyInside(lexicalRoot, candidate)) return undefined;

  const realRoot = realpathOrUndefined(lexicalRoot);
  if (realRoot === undefined) return candidate;
  // Resolve the longest existing prefix for real, then re-append the parts that do not exist yet.
  const rest: string[] = [];
  let existing = candidate;
  let real = realpathOrUndefined(existing);
  while (real === undefined) {
    const parent = path.dirname(existing);
    if (parent === existing) return undefined;
    rest.unshift(path.basename(existing));
    existing = parent;
    real = realpathOrUndefined(existing);
  }
  const resolved = rest.length > 0 ? path.join(real, ...rest) : real;
  return isStrictlyInside(realRoot, resolved) ? resolved : undefined;
}

export interface WrittenArtifactFile {
  /** The safe name the file got (with a ` (N)` suffix after a collision). */
  name: string;
  path: string;
  size: number;
}

const MAX_COLLISIONS = 10_000;

/**
 * Writes `bytes` to a new file named after `filename` in `dir` (created if needed). Never
 * overwrites: an existing name gets ` (2)`, ` (3)`… Exclusive create also refuses to follow a
 * symlink planted under the chosen name.
 */
export async function writeArtifactFile(dir: string, filename: unknown, bytes: Uint8Array): Promise<WrittenArtifactFile> {
  await mkdir(dir, { recursive: true });
  const base = safeFileName(filename);
  for (let n = 1; n <= MAX_COLLISIONS; n += 1) {
    const name = withCollisionSuffix(base, n);
    const target = path.join(dir, name);
    let handle;
    try {
      handle = await open(target, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    return { name, path: target, size: bytes.byteLength };
  }
  throw new Error(`more than ${MAX_COLLISIONS} files named like ${base} in ${dir}`);
}
