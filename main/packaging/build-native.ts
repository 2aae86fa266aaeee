/**
 * `npm run native:electron`: builds better-sqlite3 for Electron's ABI beside the Node build.
 *
 * node_modules/better-sqlite3 keeps its Node build (the tests load it); this copies the module's
 * sources to a temp folder, runs node-gyp there against the target runtime's headers, and writes
 * the binary to build/native/better-sqlite3/ (see native-binding-path.ts), where the Electron shell
 * finds it through better-sqlite3's `nativeBinding` option.
 *
 *   node build/main/packaging/build-native.js [--runtime electron|node] [--target VERSION]
 *     [--arch ARCH] [--nodedir DIR] [--dist-url URL] [--devdir DIR] [--out FILE] [--skip-if-built]
 */
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { installedElectronVersion, nativeBindingPath, type NativeRuntime } from './native-binding-path.js';

const require = createRequire(import.meta.url);

/** build/main/packaging/ → the project root. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';

export interface BuildNativeOptions {
  runtime: NativeRuntime;
  target: string;
  arch: string;
  out: string;
  nodedir?: string;
  distUrl?: string;
  devdir?: string;
  skipIfBuilt: boolean;
}

/** A failure with the one line the user should read; the CLI prints it and exits non-zero. */
export class BuildNativeError extends Error {}

class UsageError extends Error {}

const USAGE = `Usage: build-native [options]
  --runtime electron|node  runtime to build for (default electron)
  --target VERSION         its version (default: node_modules/electron's, or this Node's)
  --arch ARCH              CPU architecture (default ${process.arch})
  --nodedir DIR            use headers already on disk (DIR/include/node) instead of downloading
  --dist-url URL           where to download headers (default ${ELECTRON_HEADERS_URL} for electron)
  --devdir DIR             cache for downloaded headers (default ~/.electron-gyp for electron)
  --out FILE               where to write the .node file (default build/native/better-sqlite3/…)
  --skip-if-built          do nothing when FILE exists and was built from this better-sqlite3`;

export function parseOptions(argv: string[], root = PROJECT_ROOT): BuildNativeOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        runtime: { type: 'string' },
        target: { type: 'string' },
        arch: { type: 'string' },
        nodedir: { type: 'string' },
        'dist-url': { type: 'string' },
        devdir: { type: 'string' },
        out: { type: 'string' },
        'skip-if-built': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) throw new UsageError('');
  const runtime = values.runtime ?? 'electron';
  if (runtime !== 'electron' && runtime !== 'node') throw new UsageError(`--runtime must be electron or node, not ${runtime}`);
  const target = (values.target ?? defaultTarget(runtime)).replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(target)) throw new UsageError(`--target must be a version like 45.5.0, not ${target}`);
  const arch = values.arch ?? process.arch;
  const out = resolve(values.out ?? nativeBindingPath(root, { runtime, version: target, platform: process.platform, arch }));
  return {
    runtime,
    target,
    arch,
    out,
    nodedir: values.nodedir === undefined ? undefined : resolve(values.nodedir),
    distUrl: values['dist-url'] ?? (runtime === 'electron' ? ELECTRON_HEADERS_URL : undefined),
    // Electron's headers carry Electron's version numbers: keep them apart from Node's cache.
    devdir: values.devdir === undefined ? (runtime === 'electron' ? join(homedir(), '.electron-gyp') : undefined) : resolve(values.devdir),
    skipIfBuilt: values['skip-if-built'] ?? false,
  };
}

function defaultTarget(runtime: NativeRuntime): string {
  if (runtime === 'node') return process.versions.node;
  const version = installedElectronVersion();
  if (version === undefined) throw new UsageError('electron is not installed in node_modules: pass --target VERSION');
  return version;
}

/** Describes what a build is for; kept next to the binary so `--skip-if-built` can trust it. */
interface BuildStamp {
  runtime: NativeRuntime;
  target: string;
  platform: string;
  arch: string;
  betterSqlite3: string;
}

function betterSqlite3Dir(): string {
  return dirname(require.resolve('better-sqlite3/package.json'));
}

function currentStamp(options: BuildNativeOptions): BuildStamp {
  const pkg = JSON.parse(readFileSync(join(betterSqlite3Dir(), 'package.json'), 'utf8')) as { version: string };
  return { runtime: options.runtime, target: options.target, platform: process.platform, arch: options.arch, betterSqlite3: pkg.version };
}

function isBuilt(options: BuildNativeOptions, stamp: BuildStamp): boolean {
  try {
    return existsSync(options.out) && readFileSync(`${options.out}.json`, 'utf8') === `${JSON.stringify(stamp, null, 2)}\n`;
  } catch {
    return false;
  }
}

/**
 * npm passes its config to scripts as npm_config_* variables, and node-gyp lets those override its
 * command line: a global `nodedir=/usr` in .npmrc would silently build against Node's headers.
 * Only the flags this script passes decide the target.
 */
function nodeGypEnv(): NodeJS.ProcessEnv {
  const steering = /^npm_config_(nodedir|target|target_arch|arch|runtime|dist_url|disturl|devdir|tarball|ensure|debug|jobs|loglevel)$/i;
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (steering.test(key) || /^npm_package_config_node_gyp_/i.test(key)) continue;
    env[key] = value;
  }
  return env;
}

interface RunResult {
  code: number | null;
  output: string;
}

/** Runs node-gyp with `args` in `cwd`; `echo` streams its output to our stderr as it comes. */
function runNodeGyp(args: string[], cwd: string, echo: boolean): Promise<RunResult> {
  const bin = require.resolve('node-gyp/bin/node-gyp.js');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: nodeGypEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-200_000);
      if (echo) process.stderr.write(text);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, output }));
  });
}

/** node-gyp's reason for a failed header download, in a few words. */
function downloadFailureReason(output: string): string {
  const url = /gyp http GET (\S+)/.exec(output)?.[1];
  const failed = /attempt \d+ failed with (\S+)/.exec(output)?.[1];
  const status = /(\d{3}) response downloading/.exec(output)?.[1];
  const stack = /gyp ERR! stack (.+)/.exec(output)?.[1]?.trim();
  const why = failed ?? (status ? `HTTP ${status}` : stack ?? 'unknown error');
  return url ? `GET ${url}: ${why}` : why;
}

function targetArgs(options: BuildNativeOptions): string[] {
  const args = [`--runtime=${options.runtime}`, `--target=${options.target}`, `--arch=${options.arch}`];
  if (options.nodedir) return [...args, `--nodedir=${options.nodedir}`];
  if (options.distUrl) args.push(`--dist-url=${options.distUrl}`);
  if (options.devdir) args.push(`--devdir=${options.devdir}`);
  return args;
}

export async function buildNative(options: BuildNativeOptions, log: (line: string) => void = () => undefined): Promise<'built' | 'skipped'> {
  const stamp = currentStamp(options);
  if (options.skipIfBuilt && isBuilt(options, stamp)) {
    log(`build-native: ${options.out} is up to date (${options.runtime} ${options.target}, better-sqlite3 ${stamp.betterSqlite3})`);
    return 'skipped';
  }
  if (options.nodedir && !existsSync(join(options.nodedir, 'include', 'node', 'common.gypi'))) {
    throw new BuildNativeError(
      `--nodedir ${options.nodedir} has no include/node/common.gypi: point it at the unpacked headers of ${options.runtime} ${options.target}`,
    );
  }
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'agent-host-native-'));
  try {
    // A private copy: node-gyp writes build/ next to binding.gyp, and node_modules must stay as is.
    const source = betterSqlite3Dir();
    for (const entry of ['binding.gyp', 'package.json', 'src', 'deps']) {
      cpSync(join(source, entry), join(work, entry), { recursive: true });
    }
    const args = targetArgs(options);
    if (!options.nodedir) {
      // Headers first, on their own: a failed download gets a clear message instead of a build log.
      const install = await runNodeGyp(['install', '--ensure', ...args], work, false);
      if (install.code !== 0) {
        throw new BuildNativeError(
          `could not download the headers of ${options.runtime} ${options.target} (${downloadFailureReason(install.output)}); ` +
            `make ${options.distUrl ?? 'nodejs.org'} reachable (or use a mirror: --dist-url URL), ` +
            `or pass --nodedir DIR with node-v${options.target}-headers.tar.gz unpacked there`,
        );
      }
    }
    log(`build-native: compiling better-sqlite3 ${stamp.betterSqlite3} for ${options.runtime} ${options.target} (${process.platform}-${options.arch})`);
    const build = await runNodeGyp(['rebuild', '--release', '--jobs=max', ...args], work, true);
    const built = join(work, 'build', 'Release', 'better_sqlite3.node');
    if (build.code !== 0 || !existsSync(built)) {
      throw new BuildNativeError(`node-gyp rebuild failed (exit ${build.code}): see its output above`);
    }
    // Write then rename, so a half-copied binary never sits at the path the app loads.
    mkdirSync(dirname(options.out), { recursive: true });
    const partial = `${options.out}.partial`;
    copyFileSync(built, partial);
    renameSync(partial, options.out);
    writeFileSync(`${options.out}.json`, `${JSON.stringify(stamp, null, 2)}\n`);
    log(`build-native: wrote ${options.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 'built';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  let options: BuildNativeOptions;
  try {
    options = parseOptions(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (!err.message) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    process.stderr.write(`build-native: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  try {
    await buildNative(options, (line) => process.stderr.write(`${line}\n`));
    return 0;
  } catch (err) {
    const message = err instanceof BuildNativeError ? err.message : String((err as Error).stack ?? err);
    process.stderr.write(`build-native: error: ${message}\n`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
