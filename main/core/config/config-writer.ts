import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { ConfigError, checkConfigFile, type ConfigFile } from './config-file.js';

/** config.json as plain JSON, so keys this build does not model (or `$schema`) survive an edit. */
export type RawConfig = Record<string, unknown>;

function readRaw(file: string): RawConfig {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(file, `cannot be read as JSON (${(err as Error).message}); fix it by hand first`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(file, 'is not a JSON object; fix it by hand first');
  }
  return parsed as RawConfig;
}

/** The object at `raw[key]`, created (or replaced, if it is not an object) when needed. */
export function section(raw: RawConfig, key: string): RawConfig {
  const value = raw[key];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as RawConfig;
  const created: RawConfig = {};
  raw[key] = created;
  return created;
}

/**
 * Writes `text` to `file` so that a reader (or a crash) sees the old file or the new one, never a
 * mix: a temporary file beside it, flushed to disk, then renamed over it. Owner-only, as
 * config.json holds webhook credentials.
 */
function writeAtomically(file: string, text: string): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * Applies `edit` to config.json as it is on disk now (a person may have edited it since the
 * start), keeping every other key, checks the result as a start would, and saves it atomically.
 * Returns the checked settings. Throws ConfigError, writing nothing, when the file cannot be read
 * or the result would not be valid. Synchronous, so two edits in this process never interleave.
 */
export function updateConfigFile(file: string, edit: (raw: RawConfig) => void): ConfigFile {
  const raw = readRaw(file);
  edit(raw);
  const checked = checkConfigFile(file, raw);
  writeAtomically(file, `${JSON.stringify(raw, null, 2)}\n`);
  return checked;
}
