import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { load as loadYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICON_JOBS, LINUX_ICON_SIZES, TRAY_ICONS } from '../../../build/main/packaging/icon-set.js';
import { alphaStats, decodePng, type RgbaImage } from '../../../build/main/packaging/png.js';
import { makeTempDir } from '../../support/temp-dir.js';
import {
  asarUnpackFilter,
  loadBuilderConfig,
  nodeModuleFilter,
  packagedAppFiles,
  validateBuilderConfig,
  type BuilderConfig,
} from './electron-builder-internals.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const at = (relative: string): string => join(ROOT, relative);

type Config = {
  appId: string;
  productName: string;
  icon: string;
  asar: boolean;
  files: string[];
  asarUnpack: string[];
  npmRebuild: boolean;
  beforePack: string;
  electronFuses: Record<string, boolean>;
  extraMetadata: { desktopName: string; homepage: string; author: { email: string } };
  linux: { target: string[]; executableName: string; icon: string; maintainer: string; syncDesktopName: boolean };
  mac: { target: string; category: string; hardenedRuntime: boolean };
  win: { target: string };
  nsis: { oneClick: boolean; perMachine: boolean; allowToChangeInstallationDirectory: boolean };
};

const config = loadYaml(readFileSync(at('electron-builder.yml'), 'utf8')) as Config;

/** Width and height straight from the IHDR chunk: bytes 16–23 of every PNG. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1'), `${file} is a PNG`).toBe('PNG');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function pixels(file: string): RgbaImage {
  return decodePng(readFileSync(file));
}

/** Visible pixels that are clearly red (the attention badge). */
function redPixels(image: RgbaImage): number {
  let count = 0;
  for (let i = 0; i < image.data.length; i += 4) {
    const [r, g, b, a] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!, image.data[i + 3]!];
    if (a > 200 && r > 200 && g < 110 && b < 110) count++;
  }
  return count;
}

describe('electron-builder.yml against electron-builder 26', () => {
  let validate: ValidateFunction;

  beforeAll(() => {
    const scheme = JSON.parse(readFileSync(at('node_modules/app-builder-lib/scheme.json'), 'utf8')) as object;
    // The scheme is draft-07 with a custom `typeof` keyword; strict mode would refuse that keyword.
    validate = new Ajv({ strict: false, allErrors: true }).compile(scheme);
  });

  it('matches the scheme', () => {
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('the scheme check catches a misspelt fuse or a wrong type (the test can fail)', () => {
    expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsnode: true } })).toBe(false);
    expect(validate({ ...config, npmRebuild: 'no' })).toBe(false);
  });

  it('loads and validates with electron-builder’s own loader', async () => {
    const loaded = await loadBuilderConfig(ROOT);
    await validateBuilderConfig(loaded);
    expect(loaded['electronFuses']).toEqual(config.electronFuses);
    expect(loaded['appId']).toBe('dev.agenthost.app');
  });

  it('keeps runAsNode (worker forks) and turns the other risky fuses off', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
    // onlyLoadAppFromAsar needs an asar to load.
    expect(config.asar).toBe(true);
  });

  it('never rebuilds native modules in place, and unpacks them from the asar', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/better-sqlite3/**', 'build/native/**']));
    expect(existsSync(at(config.beforePack)), `${config.beforePack} (npm run build)`).toBe(true);
  });

  it('names the app and its targets', () => {
    expect(config.appId).toBe('dev.agenthost.app');
    expect(config.productName).toBe('Agent Host');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.linux.executableName).toBe('agent-host');
    expect(config.linux.maintainer).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/);
    expect(config.linux.syncDesktopName).toBe(true);
    expect(config.extraMetadata.desktopName).toBe('agent-host.desktop');
    expect(config.extraMetadata.homepage).toMatch(/^https:\/\//);
    expect(config.mac).toMatchObject({ target: 'dmg', category: 'public.app-category.developer-tools', hardenedRuntime: true });
    expect(config.win.target).toBe('nsis');
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true });
  });
});

describe('icons', () => {
  it('the app icon is a 1024 px PNG (electron-builder needs ≥ 512 for .icns)', () => {
    expect(pngSize(at(config.icon))).toEqual({ width: 1024, height: 1024 });
  });

  it('linux.icon is a folder with every hicolor size, named NxN.png', () => {
    expect(statSync(at(config.linux.icon)).isDirectory()).toBe(true);
    for (const size of LINUX_ICON_SIZES) {
      expect(pngSize(at(`${config.linux.icon}/${size}x${size}.png`)), `${size}x${size}`).toEqual({ width: size, height: size });
    }
    // electron-builder reads every NxN.png in the folder: nothing stray.
    expect(readdirSync(at(config.linux.icon)).sort()).toEqual(LINUX_ICON_SIZES.map((s) => `${s}x${s}.png`).sort());
  });

  it('every rendered PNG exists at its size, from an SVG that exists', () => {
    for (const job of ICON_JOBS) {
      expect(existsSync(at(job.source)), job.source).toBe(true);
      expect(pngSize(at(job.out)), job.out).toEqual({ width: job.size, height: job.size });
    }
  });

  it('tray icons come in 1x and 2x: 16/32 px templates for macOS, 32/64 px colour for the rest', () => {
    for (const name of TRAY_ICONS) {
      const base = name.endsWith('Template') ? 16 : 32;
      expect(pngSize(at(`assets/tray/${name}.png`)), name).toEqual({ width: base, height: base });
      expect(pngSize(at(`assets/tray/${name}@2x.png`)), `${name}@2x`).toEqual({ width: base * 2, height: base * 2 });
      expect(existsSync(at(`assets/tray/${name}.svg`)), `${name}.svg`).toBe(true);
    }
  });

  it('template images are black with alpha only, drawn on a transparent ground', () => {
    for (const file of ['trayTemplate', 'trayTemplate@2x', 'trayAttentionTemplate', 'trayAttentionTemplate@2x']) {
      const stats = alphaStats(pixels(at(`assets/tray/${file}.png`)));
      expect(stats.nonBlack, `${file}: pixels that are not black`).toBe(0);
      expect(stats.visible, `${file}: has a mark`).toBeGreaterThan(stats.total / 8);
      expect(stats.visible, `${file}: has a transparent ground`).toBeLessThan(stats.total * 0.75);
      // Anti-aliased edges are partial alpha, which is how macOS shapes a template.
      expect(stats.visible - stats.opaque, `${file}: soft edges`).toBeGreaterThan(0);
    }
  });

  it('the attention variants add a badge the plain ones do not have', () => {
    for (const scale of ['', '@2x']) {
      const plain = pixels(at(`assets/tray/tray${scale}.png`));
      const attention = pixels(at(`assets/tray/tray-attention${scale}.png`));
      expect(redPixels(plain)).toBe(0);
      expect(redPixels(attention)).toBeGreaterThan((attention.width * attention.height) / 20);
      expect(alphaStats(plain).nonBlack, 'colour icons are in colour').toBeGreaterThan(0);

      // The template badge sits in the top-right corner, which the plain mark leaves open.
      const corner = (image: RgbaImage): number => {
        const side = image.width / 4;
        let covered = 0;
        for (let y = 0; y < side; y++) for (let x = image.width - side; x < image.width; x++) covered += image.data[(y * image.width + x) * 4 + 3]!;
        return covered / (side * side * 255);
      };
      const templatePlain = pixels(at(`assets/tray/trayTemplate${scale}.png`));
      const templateAttention = pixels(at(`assets/tray/trayAttentionTemplate${scale}.png`));
      expect(corner(templateAttention) - corner(templatePlain), `template${scale} badge`).toBeGreaterThan(0.3);
    }
  });
});

describe('what goes into the package (electron-builder’s own file matchers)', () => {
  let project: ReturnType<typeof makeTempDir>;
  let loaded: BuilderConfig;

  /** A project with one file of each kind, so the file selection is tested, not today's build/. */
  const tree = [
    'package.json',
    'README.md',
    'main/core/host.ts',
    'test/unit/x.test.ts',
    'build/main/core/host.js',
    'build/main/core/host.js.map',
    'build/main/core/host.d.ts',
    'build/main/shell/electron-main.js',
    'build/main/packaging/build-native.js',
    'build/main/packaging/render-icons.js',
    'build/main/packaging/before-pack.js',
    'build/main/packaging/native-binding-path.js',
    'build/preload/preload.cjs',
    'build/renderer/index.html',
    'build/renderer/assets/index-abc.js',
    'build/native/better-sqlite3/electron-v45.5.0-linux-x64.node',
    'build/native/better-sqlite3/electron-v45.5.0-linux-x64.node.json',
    'build/native/better-sqlite3/node-v20.20.2-linux-x64.node',
    'assets/icon.svg',
    'assets/icon.png',
    'assets/icons/16x16.png',
    'assets/tray/tray.svg',
    'assets/tray/tray.png',
    'assets/tray/trayTemplate@2x.png',
    'dist/agent-host-0.1.0-linux-x86_64.AppImage',
    'node_modules/better-sqlite3/package.json',
    'node_modules/better-sqlite3/lib/index.js',
    'node_modules/better-sqlite3/binding.gyp',
    'node_modules/better-sqlite3/src/better_sqlite3.cpp',
    'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c',
    'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
  ];

  beforeAll(async () => {
    project = makeTempDir('agent-host-pack-');
    for (const file of tree) {
      mkdirSync(dirname(join(project.dir, file)), { recursive: true });
      writeFileSync(join(project.dir, file), file.endsWith('.json') ? '{}' : 'x');
    }
    copyFileSync(at('package.json'), join(project.dir, 'package.json'));
    copyFileSync(at('electron-builder.yml'), join(project.dir, 'electron-builder.yml'));
    loaded = await loadBuilderConfig(project.dir);
  });
  afterAll(() => project.cleanup());

  it('copies the compiled app, the Electron build of better-sqlite3 and the tray PNGs, nothing else', async () => {
    expect(await packagedAppFiles(project.dir, loaded)).toEqual(
      [
        'assets/tray/tray.png',
        'assets/tray/trayTemplate@2x.png',
        'build/main/core/host.js',
        'build/main/packaging/native-binding-path.js',
        'build/main/shell/electron-main.js',
        'build/native/better-sqlite3/electron-v45.5.0-linux-x64.node',
        'build/preload/preload.cjs',
        'build/renderer/assets/index-abc.js',
        'build/renderer/index.html',
        'package.json',
      ].sort(),
    );
  });

  it('takes better-sqlite3’s JavaScript but neither its sources nor its Node build', () => {
    const copies = nodeModuleFilter(project.dir, loaded, 'better-sqlite3');
    const copied = (relative: string): boolean => copies(relative, statSync(join(project.dir, 'node_modules/better-sqlite3', relative)));
    expect(copied('lib/index.js')).toBe(true);
    expect(copied('package.json')).toBe(true);
    expect(copied('deps/sqlite3/sqlite3.c')).toBe(false);
    expect(copied('src/better_sqlite3.cpp')).toBe(false);
    expect(copied('binding.gyp')).toBe(false);
    expect(copied('build/Release/better_sqlite3.node')).toBe(false);
  });

  it('unpacks native code from the asar, and only that', () => {
    const unpacked = asarUnpackFilter(project.dir, loaded);
    const isUnpacked = (relative: string): boolean => unpacked(relative, statSync(join(project.dir, relative)));
    expect(isUnpacked('build/native/better-sqlite3/electron-v45.5.0-linux-x64.node')).toBe(true);
    expect(isUnpacked('node_modules/better-sqlite3/lib/index.js')).toBe(true);
    expect(isUnpacked('build/main/core/host.js')).toBe(false);
    expect(isUnpacked('assets/tray/tray.png')).toBe(false);
  });
});

describe('files other processes use are unpacked from the asar', () => {
  /** Every file a script pulls in through relative imports, found in the real build. */
  function importClosure(entries: string[]): Set<string> {
    const found = new Set<string>();
    const visit = (file: string): void => {
      if (found.has(file)) return;
      found.add(file);
      const source = readFileSync(at(file), 'utf8');
      for (const match of source.matchAll(/(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
        visit(join(dirname(file), match[1] ?? match[2]!));
      }
    };
    entries.forEach(visit);
    return found;
  }
  function filesUnder(dir: string): string[] {
    return readdirSync(at(dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.map') && !entry.name.endsWith('.d.ts'))
      .map((entry) => join(entry.parentPath.slice(ROOT.length), entry.name));
  }

  it('the worker and probe scripts with all they import, and the built-in plugins', async () => {
    const needed = [
      ...importClosure(['build/main/core/runtime/worker/agent-worker.js', 'build/main/core/agents/plugin-probe.js']),
      ...filesUnder('build/main/plugins'),
    ];
    expect(needed).toContain('build/main/shared/protocol.js');
    expect(needed).toContain('build/main/plugins/echo/agent.json');
    const project = makeTempDir('agent-host-unpack-');
    try {
      for (const file of needed) {
        mkdirSync(dirname(join(project.dir, file)), { recursive: true });
        writeFileSync(join(project.dir, file), 'x');
      }
      writeFileSync(join(project.dir, 'build/main/host.js'), 'x');
      copyFileSync(at('package.json'), join(project.dir, 'package.json'));
      copyFileSync(at('electron-builder.yml'), join(project.dir, 'electron-builder.yml'));
      const unpacked = asarUnpackFilter(project.dir, await loadBuilderConfig(project.dir));
      const isUnpacked = (relative: string): boolean => unpacked(relative, statSync(join(project.dir, relative)));
      expect(needed.filter((file) => !isUnpacked(file))).toEqual([]);
      expect(isUnpacked('build/main/host.js')).toBe(false);
    } finally {
      project.cleanup();
    }
  });
});
