/**
 * electron-builder's own config loader, validator and file matchers (app-builder-lib, untyped
 * CommonJS), so the tests judge electron-builder.yml the way `electron-builder` will, without
 * packaging anything (that would download Electron).
 */
import { createRequire } from 'node:module';
import type { Stats } from 'node:fs';

const fromElectronBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder/package.json'));

export type BuilderConfig = Record<string, unknown> & { linux?: Record<string, unknown> };
type Filter = (file: string, stat: Stats) => boolean;

interface FileMatcher {
  from: string;
  patterns: string[];
  createFilter(): Filter;
}
interface FileMatcherClass {
  new (from: string, to: string, macroExpander: (s: string) => string, patterns?: string[]): FileMatcher;
}

const configModule = fromElectronBuilder('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};
const fileMatcher = fromElectronBuilder('app-builder-lib/out/fileMatcher.js') as {
  FileMatcher: FileMatcherClass;
  getMainFileMatchers(
    appDir: string,
    destination: string,
    macroExpander: (s: string) => string,
    platformSpecificBuildOptions: unknown,
    platformPackager: unknown,
    outDir: string,
    isElectronCompile: boolean,
  ): FileMatcher[];
  getNodeModuleFileMatcher(appDir: string, destination: string, macroExpander: (s: string) => string, platformSpecificBuildOptions: unknown, packager: unknown): FileMatcher;
  getFileMatchers(config: BuilderConfig, name: string, destination: string, options: Record<string, unknown>): FileMatcher[] | null;
};
const { AppFileWalker } = fromElectronBuilder('app-builder-lib/out/util/AppFileWalker.js') as {
  AppFileWalker: new (matcher: FileMatcher, packager: unknown) => { filter: Filter };
};
const { walk } = fromElectronBuilder('builder-util') as {
  walk(dir: string, filter: Filter, consumer: unknown): Promise<string[]>;
};

/** The configuration as electron-builder loads it (electron-builder.yml, package.json "build"). */
export function loadBuilderConfig(projectDir: string): Promise<BuilderConfig> {
  return configModule.getConfig(projectDir, null, null);
}

/** electron-builder's schema check; rejects with its message when the config is invalid. */
export function validateBuilderConfig(config: BuilderConfig): Promise<void> {
  return configModule.validateConfiguration(config, { isEnabled: false, add: () => undefined });
}

const identity = (s: string): string => s;
const DESTINATION = '/packaged/resources/app';

function packagerInfo(projectDir: string, config: BuilderConfig): Record<string, unknown> {
  const buildResources = (config['directories'] as { buildResources?: string } | undefined)?.buildResources ?? 'build';
  return {
    projectDir,
    buildResourcesDir: `${projectDir}/${buildResources}`,
    config,
    isPrepackedAppAsar: false,
    areNodeModulesHandledExternally: false,
    debugLogger: { isEnabled: false, add: () => undefined },
  };
}

/** The project files (node_modules aside) electron-builder would copy into the app, relative paths, sorted. */
export async function packagedAppFiles(projectDir: string, config: BuilderConfig): Promise<string[]> {
  const info = packagerInfo(projectDir, config);
  const [matcher] = fileMatcher.getMainFileMatchers(projectDir, DESTINATION, identity, config.linux ?? {}, { info }, `${projectDir}/dist`, false);
  if (!matcher) throw new Error('electron-builder found no file matcher');
  const walker = new AppFileWalker(matcher, info);
  const files = await walk(matcher.from, walker.filter, walker);
  return files.map((file) => file.slice(projectDir.length + 1)).sort();
}

/** Whether electron-builder would copy `relative` (a path inside node_modules/<moduleName>) into the app. */
export function nodeModuleFilter(projectDir: string, config: BuilderConfig, moduleName: string): (relative: string, stat: Stats) => boolean {
  const info = packagerInfo(projectDir, config);
  const patterns = fileMatcher.getNodeModuleFileMatcher(projectDir, DESTINATION, identity, config.linux ?? {}, info).patterns;
  const moduleDir = `${projectDir}/node_modules/${moduleName}`;
  const filter = new fileMatcher.FileMatcher(moduleDir, `${DESTINATION}/node_modules/${moduleName}`, identity, patterns).createFilter();
  return (relative, stat) => {
    // NodeModuleCopyHelper matches node_modules files by their path inside the app.
    return filter(`${moduleDir}/${relative}`, withModulePath(stat, `node_modules/${moduleName}/${relative}`));
  };
}

/** Whether electron-builder would leave `relative` (project-relative) outside app.asar. */
export function asarUnpackFilter(projectDir: string, config: BuilderConfig): (relative: string, stat: Stats) => boolean {
  const matchers = fileMatcher.getFileMatchers(config, 'asarUnpack', DESTINATION, {
    macroExpander: identity,
    customBuildOptions: config.linux ?? {},
    globalOutDir: `${projectDir}/dist`,
    defaultSrc: projectDir,
  });
  const filter = matchers?.[0]?.createFilter();
  return (relative, stat) => {
    // The asar packager passes node_modules files with the stat NodeModuleCopyHelper gave them.
    const fileStat = relative.startsWith('node_modules/') ? withModulePath(stat, relative) : stat;
    return filter?.(`${projectDir}/${relative}`, fileStat) ?? false;
  };
}

function withModulePath(stat: Stats, moduleFullFilePath: string): Stats {
  return Object.assign(Object.create(Object.getPrototypeOf(stat) as object) as Stats, stat, { moduleFullFilePath });
}
