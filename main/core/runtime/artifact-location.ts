import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Where a `file` artifact is on disk, checked to be inside the artifacts folder after symlinks are
 * resolved. Shared by everything that hands an artifact's file to someone: the content endpoints
 * (HTTP) and the desktop shell (reveal / open with the default app). A stored path with `..`, an
 * absolute path or a symlink leading elsewhere is refused: those serve artifacts, not the disk.
 */
export type ArtifactLocation =
  | { ok: true; realRoot: string; realFile: string; relativePath: string }
  | { ok: false; problem: 'no-file' | 'gone' | 'outside' };

/** True when `path` is strictly below `dir` (both absolute). */
export function isPathInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

export async function locateArtifactFile(artifactsRoot: string, filePath: string | undefined): Promise<ArtifactLocation> {
  if (filePath === undefined) return { ok: false, problem: 'no-file' };
  const rootPath = resolve(artifactsRoot);
  if (!isPathInside(rootPath, resolve(rootPath, filePath))) return { ok: false, problem: 'outside' };
  let realRoot: string;
  let realFile: string;
  try {
    realRoot = await realpath(rootPath);
    realFile = await realpath(resolve(rootPath, filePath));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'gone' };
    throw err;
  }
  if (!isPathInside(realRoot, realFile)) return { ok: false, problem: 'outside' };
  return { ok: true, realRoot, realFile, relativePath: relative(realRoot, realFile) };
}
