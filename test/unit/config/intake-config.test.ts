/** config.json's `intake` key: read at start, and refused clearly when malformed. */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../build/main/core/config/config-file.js';
import { defaultConfig } from '../../../build/main/core/config/host-config.js';
import { expectConfigRefused, useTempConfigFile } from '../../support/config-file.js';

describe('config.json intake', () => {
  const tmp = useTempConfigFile();

  it('accepts by default', () => {
    expect(defaultConfig().intake).toEqual({ paused: false });
    writeFileSync(tmp.file, '{}');
    expect(resolveConfig(tmp.file).intake).toEqual({ paused: false });
  });

  it('reads a saved pause with its time', () => {
    writeFileSync(tmp.file, JSON.stringify({ intake: { paused: true, paused_at: '2026-01-05T10:00:00.000Z' } }));
    expect(resolveConfig(tmp.file).intake).toEqual({ paused: true, paused_at: '2026-01-05T10:00:00.000Z' });
  });

  const bad: Array<[string, string, RegExp]> = [
    ['a paused flag that is not a boolean', '{"intake": {"paused": "yes"}}', /\/intake\/paused must be boolean/],
    ['a paused_at that is not a date-time', '{"intake": {"paused": true, "paused_at": "yesterday"}}', /\/intake\/paused_at must match format "date-time"/],
    ['an unknown intake key', '{"intake": {"paused": true, "until": "2027-01-01T00:00:00Z"}}', /\/intake: unknown key "until"/],
    ['an intake that is not an object', '{"intake": true}', /\/intake must be object/],
  ];
  for (const [what, text, message] of bad) {
    it(`refuses ${what}, naming the file and the key`, () => {
      expectConfigRefused(tmp.file, text, message);
    });
  }
});
