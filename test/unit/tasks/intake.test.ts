/**
 * Intake on its own: the state saved to a real config.json (other keys kept, written atomically),
 * applied only once saved, announced once per change, and read back as a start would.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../../build/main/core/config/config-file.js';
import { HostChanges, type ChangedPart } from '../../../build/main/core/host-changes.js';
import { HostError } from '../../../build/main/core/host-error.js';
import { createLogger } from '../../../build/main/core/logger.js';
import { Intake, INTAKE_RETRY_AFTER_SECONDS, intakePausedError } from '../../../build/main/core/tasks/intake.js';
import type { IntakeState } from '../../../build/main/shared/control-api.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let tmp: ReturnType<typeof makeTempDir>;
let file: string;
let changed: ChangedPart[];
let changes: HostChanges;

beforeEach(() => {
  tmp = makeTempDir();
  file = join(tmp.dir, 'config.json');
  changed = [];
  changes = new HostChanges();
  changes.on((what) => changed.push(what));
});
afterEach(() => tmp.cleanup());

/** An Intake as the host makes one: from config.json as a start reads it. */
function startIntake(): Intake {
  const config = resolveConfig(file);
  return new Intake({ configFile: file, settings: config.intake, changes, logger: createLogger('silent') });
}
const saved = (): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('Intake', () => {
  it('accepts by default, and pausing saves {paused, paused_at} beside every other key', () => {
    writeFileSync(file, JSON.stringify({ $schema: './x.json', retention_days: 3, server: { port: 0 } }));
    const intake = startIntake();
    expect(intake.state()).toEqual({ paused: false });
    expect(intake.isPaused()).toBe(false);

    const state = intake.setPaused(true);
    expect(state).toEqual({ paused: true, paused_at: expect.stringMatching(ISO) });
    expect(intake.isPaused()).toBe(true);
    expect(saved()).toEqual({ $schema: './x.json', retention_days: 3, server: { port: 0 }, intake: { paused: true, paused_at: state.paused_at } });
    expect(changed).toEqual(['intake']);
    // Temporary files are renamed over config.json, never left beside it.
    expect(readdirSync(tmp.dir)).toEqual(['config.json']);
  });

  it('keeps the pause and its time across a restart, and resuming drops the time', () => {
    const paused = startIntake().setPaused(true);
    const restarted = startIntake();
    expect(restarted.state()).toEqual(paused);

    expect(restarted.setPaused(false)).toEqual({ paused: false });
    expect(saved()['intake']).toEqual({ paused: false });
    expect(startIntake().state()).toEqual({ paused: false });
  });

  it('changes nothing when set to the state it is in: no write, no notice, same paused_at', () => {
    const intake = startIntake();
    const first = intake.setPaused(true);
    const text = readFileSync(file, 'utf8');
    const heard: IntakeState[] = [];
    intake.onChange((state) => heard.push(state));
    changed.length = 0;
    expect(intake.setPaused(true)).toEqual(first);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(heard).toEqual([]);
    expect(changed).toEqual([]);
  });

  it('tells every listener after a change, even when one of them throws; unsubscribing works', () => {
    const intake = startIntake();
    const heard: IntakeState[] = [];
    intake.onChange(() => {
      throw new Error('tray broke');
    });
    const stop = intake.onChange((state) => heard.push(state));
    const paused = intake.setPaused(true);
    expect(heard).toEqual([paused]);
    stop();
    intake.setPaused(false);
    expect(heard).toEqual([paused]);
    expect(intake.isPaused()).toBe(false);
  });

  it('throws ConfigError and stays as it was when config.json was broken by hand', () => {
    const intake = startIntake();
    writeFileSync(file, '{"intake": ');
    const heard: IntakeState[] = [];
    intake.onChange((state) => heard.push(state));
    expect(() => intake.setPaused(true)).toThrow(ConfigError);
    expect(intake.state()).toEqual({ paused: false });
    expect(readFileSync(file, 'utf8')).toBe('{"intake": ');
    expect(heard).toEqual([]);
    expect(changed).toEqual([]);
  });

  it('dates a pause written by hand without a time from the start, and ignores a time without a pause', () => {
    writeFileSync(file, JSON.stringify({ intake: { paused: true } }));
    const startedAt = new Date().toISOString();
    const handPaused = startIntake().state();
    expect(handPaused.paused).toBe(true);
    expect(handPaused.paused_at! >= startedAt).toBe(true);

    writeFileSync(file, JSON.stringify({ intake: { paused: false, paused_at: '2026-01-05T10:00:00.000Z' } }));
    expect(startIntake().state()).toEqual({ paused: false });
  });

  it('refuses with a 503 INTAKE_PAUSED carrying Retry-After', () => {
    const error = intakePausedError();
    expect(error).toBeInstanceOf(HostError);
    expect(error.statusCode).toBe(503);
    expect(error.code).toBe('INTAKE_PAUSED');
    expect(error.headers).toEqual({ 'retry-after': String(INTAKE_RETRY_AFTER_SECONDS) });
  });
});
