/** config.json in a temp dir, for the tests of reading and writing it. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { ConfigError, resolveConfig } from '../../build/main/core/config/config-file.js';
import { makeTempDir } from './temp-dir.js';

export interface TempConfigFile {
  /** The fresh temp dir of the current test. */
  readonly dir: string;
  /** `<dir>/config.json`, not written yet. */
  readonly file: string;
}

/**
 * Registers `beforeEach`/`afterEach` (in the calling `describe`, or the file) that give every test a
 * fresh temp dir and remove it after; read `dir` and `file` inside the tests.
 */
export function useTempConfigFile(): TempConfigFile {
  let tmp: { dir: string; cleanup: () => void } | undefined;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp?.cleanup());
  const current = (): { dir: string } => {
    if (!tmp) throw new Error('no temp config dir outside a test');
    return tmp;
  };
  return {
    get dir() {
      return current().dir;
    },
    get file() {
      return join(current().dir, 'config.json');
    },
  };
}

/** Writes `text` to `file` and expects `resolveConfig` to refuse it: a ConfigError naming the file, matching `message`. */
export function expectConfigRefused(file: string, text: string, message: RegExp): void {
  writeFileSync(file, text);
  let error: unknown;
  try {
    resolveConfig(file);
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message.startsWith(`${file}: `)).toBe(true);
  expect((error as Error).message).toMatch(message);
}
