import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../build/main/core/store/database.js';
import { TaskStore } from '../../../build/main/core/store/task-store.js';
import { ArtifactActionError, artifactFileFor, isExecutableLike } from '../../../build/main/shell/artifact-actions.js';
import { autostartEntry, autostartFile, isAutostartEnabled, quoteExecArg, setAutostart } from '../../../build/main/shell/linux-autostart.js';
import { parseShellArgs } from '../../../build/main/shell/shell-args.js';
import { describeStartupFailure } from '../../../build/main/shell/startup-failure.js';
import { ConfigError } from '../../../build/main/core/config/config-file.js';
import { startHost } from '../../../build/main/core/host.js';
import { createLogger } from '../../../build/main/core/logger.js';
import { NativeBindingMissingError, electronNativeBinding } from '../../../build/main/shell/native-binding.js';
import { makeTempDir } from '../../support/temp-dir.js';

const temps: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const temp of temps.splice(0)) temp.cleanup();
});
function tempDir(): string {
  const temp = makeTempDir('agent-host-desktop-');
  temps.push(temp);
  return temp.dir;
}

describe('shell arguments', () => {
  it('takes the host\'s flags (both spellings), --hidden, and leaves Chromium\'s switches alone', () => {
    const parsed = parseShellArgs(['--hidden', '--port=0', '--data-dir', '/tmp/x', '--no-sandbox', '--enable-logging', '--plugins', '/p']);
    expect(parsed.hidden).toBe(true);
    expect(parsed.host).toMatchObject({ kind: 'host', port: 0, dataDir: '/tmp/x', plugins: ['/p'] });
    expect(parsed.ignored).toEqual(['--no-sandbox', '--enable-logging']);
  });

  it('bad values fail with the CLI\'s own messages', () => {
    expect(() => parseShellArgs(['--port', '99999'])).toThrow(/--port must be a number from 0 to 65535/);
    expect(() => parseShellArgs(['--log-level', 'loud'])).toThrow(/--log-level must be one of/);
    expect(() => parseShellArgs(['--data-dir'])).toThrow(/data-dir/);
  });
});

describe('start at login on Linux (XDG autostart)', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, or ~/.config/autostart', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/x/cfg' }, '/home/me')).toBe('/x/cfg/autostart/agent-host.desktop');
    expect(autostartFile({}, '/home/me')).toBe('/home/me/.config/autostart/agent-host.desktop');
    // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
    expect(autostartFile({ XDG_CONFIG_HOME: 'rel' }, '/home/me')).toBe('/home/me/.config/autostart/agent-host.desktop');
  });

  it('quotes Exec arguments by the Desktop Entry rules', () => {
    expect(quoteExecArg('/usr/bin/agent-host')).toBe('/usr/bin/agent-host');
    expect(quoteExecArg('/opt/Agent Host/agent-host')).toBe('"/opt/Agent Host/agent-host"');
    expect(quoteExecArg('/opt/a"b$c`d')).toBe('"/opt/a\\\\"b\\\\$c\\\\`d"');
    expect(autostartEntry(['/opt/Agent Host/agent-host', '--hidden'])).toContain('\nExec="/opt/Agent Host/agent-host" --hidden\n');
  });

  it('is written only when turned on, read back, and removed when turned off', () => {
    const file = autostartFile({ XDG_CONFIG_HOME: tempDir() });
    expect(isAutostartEnabled(file)).toBe(false);
    setAutostart(file, true, ['/usr/bin/agent-host', '--hidden']);
    expect(isAutostartEnabled(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Agent Host\n/);
    // Switched off in the desktop's own settings: shown as off.
    writeFileSync(file, readFileSync(file, 'utf8').replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'));
    expect(isAutostartEnabled(file)).toBe(false);
    setAutostart(file, false, []);
    expect(existsSync(file)).toBe(false);
    setAutostart(file, false, []);
  });
});

describe('artifact files for reveal / open', () => {
  function storeWithArtifacts() {
    const dir = tempDir();
    const artifacts = join(dir, 'artifacts');
    mkdirSync(join(artifacts, 't1'), { recursive: true });
    const db = openDatabase(join(dir, 'agent-host.db'));
    const store = new TaskStore(db);
    const { task } = store.createTask({ agentSlug: 'echo', agentId: store.agentIdFor('echo'), input: { message: 'x' } });
    const add = (filePath: string) =>
      store.addArtifact({ taskId: task.task_id, type: 'file', filePath, filename: filePath.split('/').pop()!, mimeType: 'text/plain', size: 1 }).artifact.artifact_id;
    return { dir, artifacts, db, store, taskId: task.task_id, add };
  }

  it('resolves a file inside the artifacts folder; refuses escapes, missing files and programs', async () => {
    const { dir, artifacts, db, store, taskId, add } = storeWithArtifacts();
    try {
      writeFileSync(join(artifacts, 't1', 'report.txt'), 'ok');
      writeFileSync(join(artifacts, 't1', 'tool.bin.txt'), 'ok');
      chmodSync(join(artifacts, 't1', 'tool.bin.txt'), 0o755);
      writeFileSync(join(artifacts, 't1', 'setup.EXE'), 'MZ');
      writeFileSync(join(dir, 'secret.txt'), 'secret');
      symlinkSync(join(dir, 'secret.txt'), join(artifacts, 't1', 'link.txt'));
      const report = add('t1/report.txt');
      expect(await artifactFileFor(store, artifacts, report, true, 'linux')).toBe(join(artifacts, 't1', 'report.txt'));
      const expectCode = async (id: string, forOpening: boolean, code: string) => {
        const error = await artifactFileFor(store, artifacts, id, forOpening, 'linux').catch((err: unknown) => err);
        expect(error, id).toBeInstanceOf(ArtifactActionError);
        expect((error as ArtifactActionError).code).toBe(code);
      };
      await expectCode(add('../secret.txt'), false, 'OUTSIDE_ARTIFACTS');
      await expectCode(add('t1/link.txt'), false, 'OUTSIDE_ARTIFACTS');
      await expectCode(add('t1/gone.txt'), false, 'FILE_GONE');
      await expectCode(add('t1/setup.EXE'), true, 'EXECUTABLE_REFUSED');
      await expectCode(add('t1/tool.bin.txt'), true, 'EXECUTABLE_REFUSED');
      await expectCode('00000000-0000-4000-8000-000000000000', false, 'ARTIFACT_NOT_FOUND');
      // Reveal (not open) of a program is fine: it only shows the file.
      expect(await artifactFileFor(store, artifacts, add('t1/setup.EXE'), false, 'linux')).toBe(join(artifacts, 't1', 'setup.EXE'));
      const text = store.addArtifact({ taskId, type: 'text', content: 'hello' }).artifact.artifact_id;
      await expectCode(text, false, 'NOT_A_FILE');
    } finally {
      db.close();
    }
  });

  it('knows which files run when opened', () => {
    expect(isExecutableLike('/a/b.sh', 0o644, 'linux')).toBe(true);
    expect(isExecutableLike('/a/b.desktop', 0o644, 'linux')).toBe(true);
    expect(isExecutableLike('/a/B.LNK', 0o644, 'win32')).toBe(true);
    expect(isExecutableLike('/a/b.txt', 0o755, 'darwin')).toBe(true);
    expect(isExecutableLike('/a/b.txt', 0o755, 'win32')).toBe(false);
    expect(isExecutableLike('/a/report.pdf', 0o644, 'linux')).toBe(false);
  });
});

describe('start-up failure dialogs', () => {
  it('a config.json that is not valid names the problem', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{"server":{"port":"x"}}');
    const err = await startHost({ dataDir: dir, logger: createLogger('silent') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const failure = describeStartupFailure(err, dir);
    expect(failure).toMatchObject({ kind: 'config', title: 'Settings file not valid', revealPath: dir });
    expect(failure.detail).toContain('port');
  });

  it('a missing Electron build of better-sqlite3 says how to make it', () => {
    const root = tempDir();
    const err = (() => {
      try {
        electronNativeBinding(root, { electronVersion: '45.5.0', platform: 'linux', arch: 'x64' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(NativeBindingMissingError);
    expect(describeStartupFailure(err, root)).toMatchObject({ kind: 'native-module', title: 'Database module missing' });
    expect((err as Error).message).toContain('npm run native:electron');
    const built = join(root, 'build', 'native', 'better-sqlite3');
    mkdirSync(built, { recursive: true });
    writeFileSync(join(built, 'electron-v45.5.0-linux-x64.node'), '');
    expect(electronNativeBinding(root, { electronVersion: '45.5.0', platform: 'linux', arch: 'x64' })).toBe(join(built, 'electron-v45.5.0-linux-x64.node'));
  });

  it('anything else still gets a dialog, with the stack', () => {
    const failure = describeStartupFailure(new Error('disk on fire'), '/d');
    expect(failure.kind).toBe('unexpected');
    expect(failure.detail).toContain('disk on fire');
  });
});
