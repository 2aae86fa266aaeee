import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { locateArtifactFile } from '../core/runtime/artifact-location.js';
import type { TaskStore } from '../core/store/task-store.js';

/** Why reveal/open could not be done, in words for the person (the page shows it as a toast). */
export class ArtifactActionError extends Error {
  constructor(
    readonly code: 'ARTIFACT_NOT_FOUND' | 'NOT_A_FILE' | 'FILE_GONE' | 'OUTSIDE_ARTIFACTS' | 'EXECUTABLE_REFUSED' | 'OPEN_FAILED',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Files whose "open with the default application" runs them: an agent (or whoever sent it a task)
 * must not be able to start a program on this machine through a click on Open. Reveal still works.
 */
const EXECUTABLE_EXTENSIONS = new Set([
  '.app', '.appimage', '.application', '.bat', '.bin', '.cmd', '.com', '.command', '.cpl', '.desktop', '.exe',
  '.gadget', '.hta', '.inf', '.jar', '.js', '.jse', '.lnk', '.msc', '.msi', '.msp', '.pif', '.ps1', '.psm1', '.reg',
  '.run', '.scf', '.scr', '.sh', '.terminal', '.tool', '.url', '.vb', '.vbe', '.vbs', '.webloc', '.workflow', '.ws', '.wsf', '.wsh',
]);

export function isExecutableLike(path: string, mode: number, platform: NodeJS.Platform): boolean {
  if (EXECUTABLE_EXTENSIONS.has(extname(path).toLowerCase())) return true;
  // On POSIX systems an executable bit lets the file manager run the file.
  return platform !== 'win32' && (mode & 0o111) !== 0;
}

/**
 * The real path of artifact `artifactId`'s file, checked to lie inside the data folder's
 * artifacts (symlinks resolved); `forOpening` also refuses files that would run when opened.
 */
export async function artifactFileFor(
  store: Pick<TaskStore, 'getArtifact'>,
  artifactsRoot: string,
  artifactId: string,
  forOpening: boolean,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  const record = store.getArtifact(artifactId);
  if (!record) throw new ArtifactActionError('ARTIFACT_NOT_FOUND', `artifact ${artifactId} does not exist`);
  if (record.artifact.type !== 'file') throw new ArtifactActionError('NOT_A_FILE', `artifact ${artifactId} is not a file`);
  const location = await locateArtifactFile(artifactsRoot, record.filePath);
  if (!location.ok) {
    if (location.problem === 'outside') {
      throw new ArtifactActionError('OUTSIDE_ARTIFACTS', `artifact ${artifactId}'s file is not inside the artifacts folder`);
    }
    throw new ArtifactActionError('FILE_GONE', `the file of artifact ${artifactId} is gone from disk`);
  }
  if (forOpening) {
    const info = await stat(location.realFile);
    if (!info.isFile()) throw new ArtifactActionError('NOT_A_FILE', `artifact ${artifactId} is not a regular file`);
    if (isExecutableLike(location.realFile, info.mode, platform)) {
      throw new ArtifactActionError('EXECUTABLE_REFUSED', 'Agent Host does not open files that would run as programs; use Show in folder instead');
    }
  }
  return location.realFile;
}
