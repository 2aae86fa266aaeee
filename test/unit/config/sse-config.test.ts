import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../../build/main/core/config/config-file.js';
import { useTempConfigFile } from '../../support/config-file.js';

describe('config.json: the SSE stream settings', () => {
  const tmp = useTempConfigFile();

  it('pings after 15 s and allows 1 MiB of unread events by default', () => {
    expect(resolveConfig(tmp.file).server).toMatchObject({ sse_ping_ms: 15000, sse_max_buffer_bytes: 1048576 });
  });

  it('takes both from server.*', () => {
    writeFileSync(tmp.file, JSON.stringify({ server: { sse_ping_ms: 100, sse_max_buffer_bytes: 4096 } }));
    expect(resolveConfig(tmp.file).server).toMatchObject({ sse_ping_ms: 100, sse_max_buffer_bytes: 4096 });
  });

  it.each([
    ['{"server": {"sse_ping_ms": 99}}', /\/server\/sse_ping_ms must be >= 100/],
    ['{"server": {"sse_ping_ms": 1.5}}', /\/server\/sse_ping_ms must be integer/],
    ['{"server": {"sse_max_buffer_bytes": 1023}}', /\/server\/sse_max_buffer_bytes must be >= 1024/],
  ])('refuses %s', (text, message) => {
    writeFileSync(tmp.file, text);
    expect(() => resolveConfig(tmp.file)).toThrow(ConfigError);
    expect(() => resolveConfig(tmp.file)).toThrow(message);
  });
});
