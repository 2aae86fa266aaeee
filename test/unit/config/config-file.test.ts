import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../build/main/core/config/config-file.js';
import { dataDirLayout, defaultDataDir } from '../../../build/main/core/config/data-dir.js';
import { defaultConfig } from '../../../build/main/core/config/host-config.js';
import { expectConfigRefused, useTempConfigFile } from '../../support/config-file.js';

describe('config.json', () => {
  const tmp = useTempConfigFile();

  it('uses the defaults when the file does not exist', () => {
    expect(resolveConfig(tmp.file)).toEqual(defaultConfig());
  });

  it('merges the file over the defaults and the flags over the file', () => {
    writeFileSync(
      tmp.file,
      JSON.stringify({
        server: { port: 9000, allowed_origins: ['https://orchestrator.example'] },
        runtime: { cancel_grace_ms: 100 },
        agents: { echo: { enabled: false, concurrency: 2, notification_config: { endpoint_url: 'https://h.example/hook', auth_header: 'Authorization: Bearer x' } } },
      }),
    );
    const config = resolveConfig(tmp.file, { port: 0 });
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 0, allowed_origins: ['https://orchestrator.example'] });
    expect(config.runtime).toEqual({ ...defaultConfig().runtime, cancel_grace_ms: 100 });
    expect(config.agents['echo']).toMatchObject({ enabled: false, concurrency: 2 });
    expect(config.notifications).toEqual(defaultConfig().notifications);
  });

  it('takes the notifier settings and per-agent signing secrets', () => {
    writeFileSync(
      tmp.file,
      JSON.stringify({
        notifications: { retry_schedule_ms: [100, 200] },
        agents: { echo: { notification_config: { endpoint_url: 'https://h.example/hook', signing_secret: 'whsec_c2VjcmV0LWtleQ==' } } },
      }),
    );
    const config = resolveConfig(tmp.file);
    expect(config.notifications).toEqual({ retry_schedule_ms: [100, 200], timeout_ms: 15000 });
    expect(config.agents['echo']!.notification_config!.signing_secret).toBe('whsec_c2VjcmV0LWtleQ==');
    expect(defaultConfig().notifications.retry_schedule_ms).toEqual([5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000]);
  });

  const bad: Array<[string, string, RegExp]> = [
    ['not JSON', '{"server": ', /is not valid JSON/],
    ['a wrong type', '{"server": {"port": "7410"}}', /\/server\/port must be integer/],
    ['a port out of range', '{"server": {"port": 70000}}', /\/server\/port must be <= 65535/],
    ['an unknown key', '{"sever": {}}', /unknown key "sever"/],
    ['an unknown agent setting', '{"agents": {"echo": {"concurency": 2}}}', /unknown key "concurency"/],
    ['a bad slug', '{"agents": {"Echo!": {}}}', /property name/],
    ['a zero concurrency', '{"agents": {"echo": {"concurrency": 0}}}', /concurrency must be >= 1/],
    ['a webhook without a URL', '{"agents": {"echo": {"notification_config": {}}}}', /endpoint_url/],
    ['a malformed auth header', '{"agents": {"echo": {"notification_config": {"endpoint_url": "https://x.example", "auth_header": "Bearer x"}}}}', /auth_header/],
    ['an array', '[]', /must be object/],
    ['a signing secret without its prefix', '{"agents": {"echo": {"notification_config": {"endpoint_url": "https://x.example", "signing_secret": "c2VjcmV0"}}}}', /\/agents\/echo\/notification_config\/signing_secret must match pattern/],
    ['a negative retry delay', '{"notifications": {"retry_schedule_ms": [1000, -1]}}', /\/notifications\/retry_schedule_ms\/1 must be >= 0/],
    ['a retry schedule that is not a list', '{"notifications": {"retry_schedule_ms": 5000}}', /\/notifications\/retry_schedule_ms must be array/],
    ['a zero webhook timeout', '{"notifications": {"timeout_ms": 0}}', /\/notifications\/timeout_ms must be >= 10/],
    ['an unknown notifications key', '{"notifications": {"retries": 3}}', /unknown key "retries"/],
  ];
  for (const [what, text, message] of bad) {
    it(`refuses ${what}, naming the file and the problem`, () => {
      expectConfigRefused(tmp.file, text, message);
    });
  }
});

describe('data dir', () => {
  it('lays out the files DESIGN.md names', () => {
    const layout = dataDirLayout('/tmp/x');
    expect(layout).toEqual({
      root: '/tmp/x',
      database: '/tmp/x/agent-host.db',
      artifacts: '/tmp/x/artifacts',
      plugins: '/tmp/x/plugins',
      config: '/tmp/x/config.json',
    });
  });

  it("defaults to the desktop app's userData folder on each platform", () => {
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/Agent Host');
    expect(defaultDataDir('win32', { APPDATA: 'C:/Users/u/AppData/Roaming' })).toMatch(/Roaming[/\\]Agent Host$/);
    expect(defaultDataDir('darwin', {})).toMatch(/Library[/\\]Application Support[/\\]Agent Host$/);
  });
});
