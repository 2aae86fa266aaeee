/** config.json's `intake` key: read at start, and refused clearly when malformed. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../../build/main/core/config/config-file.js';
import { defaultConfig } from '../../../build/main/core/config/host-config.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('config.json intake', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let file: string;
  beforeEach(() => {
    tmp = makeTempDir();
    file = join(tmp.dir, 'config.json');
  });
  afterEach(() => tmp.cleanup());

  it('accepts by default', () => {
    expect(defaultConfig().intake).toEqual({ paused: false });
    writeFileSync(file, '{}');
    expect(resolveConfig(file).intake).toEqual({ paused: false });
  });

  it('reads a saved pause with its time', () => {
    writeFileSync(file, JSON.stringify({ intake: { paused: true, paused_at: '2026-01-05T10:00:00.000Z' } }));
    expect(resolveConfig(file).intake).toEqual({ paused: true, paused_at: '2026-01-05T10:00:00.000Z' });
  });

  const bad: Array<[string, string, RegExp]> = [
    ['a paused flag that is not a boolean', '{"intake": {"paused": "yes"}}', /\/intake\/paused must be boolean/],
    ['a paused_at that is not a date-time', '{"intake": {"paused": true, "paused_at": "yesterday"}}', /\/intake\/paused_at must match format "date-time"/],
    ['an unknown intake key', '{"intake": {"paused": true, "until": "2027-01-01T00:00:00Z"}}', /\/intake: unknown key "until"/],
    ['an intake that is not an object', '{"intake": true}', /\/intake must be object/],
  ];
  for (const [what, text, message] of bad) {
    it(`refuses ${what}, naming the file and the key`, () => {
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
    });
  }
});
