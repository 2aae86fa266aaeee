/** The control listener's settings, the command-line flag, and saving config.json from the API. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../../build/main/cli/args.js';
import { ConfigError, resolveConfig } from '../../../build/main/core/config/config-file.js';
import { section, updateConfigFile } from '../../../build/main/core/config/config-writer.js';
import { useTempConfigFile } from '../../support/config-file.js';

const tmp = useTempConfigFile();

describe('control settings in config.json', () => {
  it('defaults to 127.0.0.1:7411 and keeps everything', () => {
    expect(resolveConfig(tmp.file)).toMatchObject({ control: { host: '127.0.0.1', port: 7411 }, retention_days: 0 });
  });

  it('takes loopback hosts, a port (0 = ephemeral), retention and the --control-port flag', () => {
    writeFileSync(tmp.file, JSON.stringify({ control: { host: 'localhost', port: 9000 }, retention_days: 30 }));
    expect(resolveConfig(tmp.file)).toMatchObject({ control: { host: 'localhost', port: 9000 }, retention_days: 30 });
    expect(resolveConfig(tmp.file, { controlPort: 0 }).control).toEqual({ host: 'localhost', port: 0 });
    for (const host of ['::1', '127.0.0.2', '[::1]']) {
      writeFileSync(tmp.file, JSON.stringify({ control: { host } }));
      expect(resolveConfig(tmp.file).control.host).toBe(host);
    }
  });

  it('refuses to serve the control API beyond loopback', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      writeFileSync(tmp.file, JSON.stringify({ control: { host } }));
      expect(() => resolveConfig(tmp.file), host).toThrow(ConfigError);
      expect(() => resolveConfig(tmp.file)).toThrow(/control\/host must be a loopback address/);
    }
  });

  it('refuses a bad port, a negative retention and unknown control keys', () => {
    for (const value of [{ control: { port: 70000 } }, { control: { tls: true } }, { retention_days: -1 }, { retention_days: 1.5 }]) {
      writeFileSync(tmp.file, JSON.stringify(value));
      expect(() => resolveConfig(tmp.file), JSON.stringify(value)).toThrow(ConfigError);
    }
  });
});

describe('--control-port', () => {
  it('is parsed like --port', () => {
    expect(parseCommand(['--headless', '--control-port', '0'])).toMatchObject({ kind: 'host', controlPort: 0 });
    expect(parseCommand(['--control-port', '7999'])).toMatchObject({ controlPort: 7999 });
    for (const bad of ['-1', '70000', 'x']) expect(() => parseCommand(['--control-port', bad]), bad).toThrow(UsageError);
  });
});

describe('updateConfigFile', () => {
  it('edits the file as it is on disk, keeping every other key (and keys it does not model)', () => {
    writeFileSync(tmp.file, JSON.stringify({ $schema: 'x.json', runtime: { cancel_grace_ms: 100 }, agents: { echo: { concurrency: 2 } } }));
    const saved = updateConfigFile(tmp.file, (raw) => {
      section(section(raw, 'agents'), 'echo')['enabled'] = false;
    });
    const expected = { $schema: 'x.json', runtime: { cancel_grace_ms: 100 }, agents: { echo: { concurrency: 2, enabled: false } } };
    expect(JSON.parse(readFileSync(tmp.file, 'utf8'))).toEqual(expected);
    expect(saved).toEqual(expected);
    // Owner-only (it holds webhook credentials), and no temporary file is left beside it.
    if (process.platform !== 'win32') expect(statSync(tmp.file).mode & 0o777).toBe(0o600);
    expect(readdirSync(tmp.dir)).toEqual(['config.json']);
  });

  it('creates the file when there is none', () => {
    updateConfigFile(tmp.file, (raw) => {
      raw['retention_days'] = 3;
    });
    expect(JSON.parse(readFileSync(tmp.file, 'utf8'))).toEqual({ retention_days: 3 });
  });

  it('writes nothing when the result would not be valid, or the file cannot be read', () => {
    writeFileSync(tmp.file, '{"retention_days": 1}');
    expect(() =>
      updateConfigFile(tmp.file, (raw) => {
        raw['retention_days'] = 'forever';
      }),
    ).toThrow(ConfigError);
    expect(readFileSync(tmp.file, 'utf8')).toBe('{"retention_days": 1}');
    for (const broken of ['{"agents": ', '[1, 2]']) {
      writeFileSync(tmp.file, broken);
      expect(() => updateConfigFile(tmp.file, () => undefined)).toThrow(/fix it by hand first/);
      expect(readFileSync(tmp.file, 'utf8')).toBe(broken);
    }
    expect(readdirSync(tmp.dir)).toEqual(['config.json']);
  });
});
