import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../../build/main/core/config/config-file.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('config.json: the SSE stream settings', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let file: string;
  beforeEach(() => {
    tmp = makeTempDir();
    file = join(tmp.dir, 'config.json');
  });
  afterEach(() => tmp.cleanup());

  it('pings after 15 s and allows 1 MiB of unread events by default', () => {
    expect(resolveConfig(file).server).toMatchObject({ sse_ping_ms: 15000, sse_max_buffer_bytes: 1048576 });
  });

  it('takes both from server.*', () => {
    writeFileSync(file, JSON.stringify({ server: { sse_ping_ms: 100, sse_max_buffer_bytes: 4096 } }));
    expect(resolveConfig(file).server).toMatchObject({ sse_ping_ms: 100, sse_max_buffer_bytes: 4096 });
  });

  it.each([
    ['{"server": {"sse_ping_ms": 99}}', /\/server\/sse_ping_ms must be >= 100/],
    ['{"server": {"sse_ping_ms": 1.5}}', /\/server\/sse_ping_ms must be integer/],
    ['{"server": {"sse_max_buffer_bytes": 1023}}', /\/server\/sse_max_buffer_bytes must be >= 1024/],
  ])('refuses %s', (text, message) => {
    writeFileSync(file, text);
    expect(() => resolveConfig(file)).toThrow(ConfigError);
    expect(() => resolveConfig(file)).toThrow(message);
  });
});
