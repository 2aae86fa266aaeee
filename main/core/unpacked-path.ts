/**
 * Inside the packaged desktop app the code lives in app.asar, an archive that only Electron's own
 * file system layer can read. What other processes use — the worker and probe scripts they run,
 * the built-in plugins' folders they run in (their working directory), the Python templates — is
 * unpacked beside it (electron-builder.yml `asarUnpack`). This maps a path inside the archive to
 * that unpacked copy; any other path (a source checkout, the headless host) is returned as is.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked');
}
