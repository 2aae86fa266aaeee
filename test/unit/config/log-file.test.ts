import { readFileSync, statSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../build/main/core/logger.js';
import { makeTempDir } from '../../support/temp-dir.js';

const temps: { cleanup: () => void }[] = [];
afterEach(() => temps.splice(0).forEach((t) => t.cleanup()));

function flushed(logger: ReturnType<typeof createLogger>): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

describe('log file (the desktop app)', () => {
  it('appends JSON lines to the file, creating its folder', async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const file = join(temp.dir, 'logs', 'agent-host.log');
    const logger = createLogger('info', { file });
    logger.info({ port: 7410 }, 'started');
    logger.debug('not at info');
    await flushed(logger);
    // The file stream opens asynchronously: wait until the line is there.
    await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toContain('started'));
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ app: 'agent-host', msg: 'started', port: 7410 });
  });

  it('moves a file past 10 MB aside at start, keeping one old file', async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const file = join(temp.dir, 'logs', 'agent-host.log');
    mkdirSync(join(temp.dir, 'logs'));
    writeFileSync(file, Buffer.alloc(10 * 1024 * 1024 + 1, 'x'));
    const logger = createLogger('info', { file });
    expect(statSync(`${file}.1`).size).toBe(10 * 1024 * 1024 + 1);
    logger.info('after the move');
    // The new file is opened asynchronously: wait for the line to land in it.
    await vi.waitFor(() => expect(existsSync(file) && readFileSync(file, 'utf8')).toContain('after the move'));
    expect(statSync(file).size).toBeLessThan(1024);
  });
});
