import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkNativeBuilds } from '../../../build/main/packaging/before-pack.js';
import { hasElectronNativeBuild, nativeBindingFileName, nativeBindingPath } from '../../../build/main/packaging/native-binding-path.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('native binding paths', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => (tmp = makeTempDir()));
  afterEach(() => tmp.cleanup());

  const touch = (file: string): void => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'x');
  };

  it('one file per runtime, version, platform and architecture under build/native/better-sqlite3', () => {
    expect(nativeBindingPath('/app', { runtime: 'electron', version: '45.5.0', platform: 'linux', arch: 'x64' })).toBe(
      join('/app', 'build', 'native', 'better-sqlite3', 'electron-v45.5.0-linux-x64.node'),
    );
    expect(nativeBindingFileName({ runtime: 'node', version: 'v20.19.0', platform: 'darwin', arch: 'arm64' })).toBe('node-v20.19.0-darwin-arm64.node');
  });

  it('refuses names that would leave the folder', () => {
    expect(() => nativeBindingFileName({ runtime: 'electron', version: '../../x', platform: 'linux', arch: 'x64' })).toThrow(/version/);
    expect(() => nativeBindingFileName({ runtime: 'electron', version: '45.5.0', platform: 'linux', arch: 'x64/..' })).toThrow(/arch/);
    expect(() => nativeBindingFileName({ runtime: 'bun' as 'node', version: '1.0.0', platform: 'linux', arch: 'x64' })).toThrow(/runtime/);
  });

  it('hasElectronNativeBuild looks for exactly that file', () => {
    expect(hasElectronNativeBuild(tmp.dir, '45.5.0', 'linux', 'x64')).toBe(false);
    touch(nativeBindingPath(tmp.dir, { runtime: 'node', version: '45.5.0', platform: 'linux', arch: 'x64' }));
    expect(hasElectronNativeBuild(tmp.dir, '45.5.0', 'linux', 'x64')).toBe(false);
    touch(nativeBindingPath(tmp.dir, { runtime: 'electron', version: '45.5.0', platform: 'linux', arch: 'x64' }));
    expect(hasElectronNativeBuild(tmp.dir, '45.5.0', 'linux', 'x64')).toBe(true);
    expect(hasElectronNativeBuild(tmp.dir, '45.5.0', 'linux', 'arm64')).toBe(false);
    expect(hasElectronNativeBuild(tmp.dir, '45.4.0', 'linux', 'x64')).toBe(false);
  });

  describe('the beforePack hook', () => {
    // builder-util's Arch: ia32 0, x64 1, armv7l 2, arm64 3, universal 4.
    const context = (electronPlatformName: string, arch: number) => ({
      electronPlatformName,
      arch,
      packager: { info: { framework: { version: '45.5.0' } } },
    });

    it('refuses to package without the Electron build, saying how to make it', () => {
      expect(() => checkNativeBuilds(context('linux', 1), tmp.dir)).toThrow(
        /better-sqlite3 is not built for Electron 45\.5\.0 on linux-x64: run `npm run native:electron -- --arch x64`/,
      );
    });

    it('passes once the build for that platform and architecture is there', () => {
      touch(nativeBindingPath(tmp.dir, { runtime: 'electron', version: '45.5.0', platform: 'linux', arch: 'x64' }));
      expect(checkNativeBuilds(context('linux', 1), tmp.dir)).toEqual([
        nativeBindingPath(tmp.dir, { runtime: 'electron', version: '45.5.0', platform: 'linux', arch: 'x64' }),
      ]);
      expect(() => checkNativeBuilds(context('linux', 3), tmp.dir)).toThrow(/linux-arm64/);
    });

    it('a universal macOS app needs both architectures; mas is macOS', () => {
      touch(nativeBindingPath(tmp.dir, { runtime: 'electron', version: '45.5.0', platform: 'darwin', arch: 'arm64' }));
      expect(() => checkNativeBuilds(context('darwin', 4), tmp.dir)).toThrow(/darwin-x64:/);
      touch(nativeBindingPath(tmp.dir, { runtime: 'electron', version: '45.5.0', platform: 'darwin', arch: 'x64' }));
      expect(checkNativeBuilds(context('darwin', 4), tmp.dir)).toHaveLength(2);
      expect(checkNativeBuilds(context('mas', 3), tmp.dir)).toHaveLength(1);
    });
  });
});
