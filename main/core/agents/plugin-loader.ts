import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { AgentSettings } from '../config/host-config.js';
import type { TaskStore } from '../store/task-store.js';
import type { LoadedAgent, PluginLoadError, PluginSource } from './loaded-agent.js';
import { MANIFEST_FILE, readManifest, type ValidManifest } from './manifest.js';
import { createSchemaCompiler } from './plugin-schemas.js';
import { probeEntry, type ProbeOptions } from './probe-runner.js';
import { unpackedPath } from '../unpacked-path.js';

/** The plugins shipped with the app: build/main/plugins, next to this file's build/main/core. */
export const BUILTIN_PLUGINS_DIR = unpackedPath(fileURLToPath(new URL('../../plugins/', import.meta.url)));

export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
/** Heap of an import probe unless the manifest sets memory_limit_mb: imports should be small. */
export const DEFAULT_PROBE_HEAP_MB = 256;
/** Probes at once: each is a Node process, and the machines this runs on may have two cores. */
export const DEFAULT_PROBE_CONCURRENCY = 2;

export interface PluginDir {
  path: string;
  source: PluginSource;
}

export interface LoadPluginsOptions {
  /** Scanned in order; when two plugins share a slug, the first one found wins. */
  dirs: readonly PluginDir[];
  store: TaskStore;
  /** config.json's `agents` map, by slug. */
  settings?: Readonly<Record<string, AgentSettings>>;
  logger?: Logger;
  probe?: { timeoutMs?: number; heapMb?: number; concurrency?: number };
}

export interface LoadPluginsResult {
  agents: LoadedAgent[];
  errors: PluginLoadError[];
}

/** The folders to scan, in the order that decides duplicate slugs: built-in, data dir, --plugins. */
export function pluginDirs(dataDir: string, cliDirs: readonly string[] = []): PluginDir[] {
  return [
    { path: BUILTIN_PLUGINS_DIR, source: 'builtin' },
    { path: join(dataDir, 'plugins'), source: 'data-dir' },
    ...cliDirs.map((path): PluginDir => ({ path: resolve(path), source: 'cli' })),
  ];
}

interface Candidate extends ValidManifest {
  dir: string;
  source: PluginSource;
}

/**
 * Finds the plugins in `dirs`, checks their manifests and imports each entry in a throwaway child
 * process. A broken plugin is reported in `errors` and skipped; this never throws for a plugin's
 * fault, so one bad folder cannot keep the host from starting.
 */
export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadPluginsResult> {
  const errors: PluginLoadError[] = [];
  const report = (error: PluginLoadError): void => {
    errors.push(error);
    options.logger?.warn({ dir: error.dir, slug: error.slug }, `plugin skipped: ${error.reason}`);
  };

  const candidates: Candidate[] = [];
  const bySlug = new Map<string, Candidate>();
  // One compiler per load: see plugin-schemas.ts for why plugins don't share the host's Ajv.
  const compile = createSchemaCompiler();
  for (const { path, source } of options.dirs) {
    for (const dir of await pluginFolders(path, source, report)) {
      const result = await readManifest(dir, compile);
      if (!result.ok) {
        report({ dir, reason: result.reason, ...(result.slug !== undefined ? { slug: result.slug } : {}) });
        continue;
      }
      const { slug } = result.value.manifest;
      // Settled on manifests, before probing: the folder found first keeps its slug even if its
      // entry then fails, so which plugin serves a slug never depends on import outcomes.
      const first = bySlug.get(slug);
      if (first) {
        report({ dir, slug, reason: `slug "${slug}" of ${dir} is already used by ${first.dir}, which was found first` });
        continue;
      }
      const candidate: Candidate = { ...result.value, dir, source };
      bySlug.set(slug, candidate);
      candidates.push(candidate);
    }
  }

  const probe = options.probe ?? {};
  const reasons = await mapLimit(candidates, probe.concurrency ?? DEFAULT_PROBE_CONCURRENCY, (candidate) =>
    probeEntry(candidate.entryPath, probeOptions(candidate, probe)),
  );

  const agents: LoadedAgent[] = [];
  candidates.forEach((candidate, index) => {
    const { slug, agent_id: fixedId } = candidate.manifest;
    const reason = reasons[index];
    if (reason !== undefined) {
      report({ dir: candidate.dir, slug, reason: `${candidate.entryPath}: ${reason}` });
      return;
    }
    const holder = fixedId !== undefined ? agents.find((agent) => agent.agentId === fixedId) : undefined;
    if (holder) {
      report({ dir: candidate.dir, slug, reason: `agent_id ${fixedId} is already used by "${holder.slug}" in ${holder.dir}` });
      return;
    }
    const agent = toLoadedAgent(candidate, options, report);
    if (!agent) return;
    agents.push(agent);
    options.logger?.info({ slug, dir: agent.dir, source: agent.source, agentId: agent.agentId }, `plugin loaded: ${slug}`);
  });
  return { agents, errors };
}

function probeOptions(candidate: Candidate, probe: NonNullable<LoadPluginsOptions['probe']>): ProbeOptions {
  return {
    timeoutMs: probe.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    // A plugin that declares its worker's heap gets the same to import in: no less, no more.
    heapMb: candidate.manifest.memory_limit_mb ?? probe.heapMb ?? DEFAULT_PROBE_HEAP_MB,
  };
}

function toLoadedAgent(
  candidate: Candidate,
  options: LoadPluginsOptions,
  report: (error: PluginLoadError) => void,
): LoadedAgent | undefined {
  const { manifest } = candidate;
  let agentId: string;
  try {
    agentId = options.store.agentIdFor(manifest.slug, manifest.agent_id);
  } catch (err) {
    // agent_id is UNIQUE in the store: a fixed id that another slug got earlier lands here.
    const reason =
      manifest.agent_id !== undefined
        ? `agent_id ${manifest.agent_id} already belongs to another slug in this host's database (${(err as Error).message})`
        : `no agent_id could be assigned: ${(err as Error).message}`;
    report({ dir: candidate.dir, slug: manifest.slug, reason });
    return undefined;
  }
  const settings = options.settings?.[manifest.slug] ?? {};
  const agent: LoadedAgent = {
    slug: manifest.slug,
    manifest,
    dir: candidate.dir,
    entryPath: candidate.entryPath,
    source: candidate.source,
    agentId,
    enabled: settings.enabled ?? true,
    concurrency: settings.concurrency ?? manifest.concurrency ?? 1,
    validateInput: candidate.validateInput,
  };
  if (candidate.validateOutput) agent.validateOutput = candidate.validateOutput;
  if (settings.notification_config) agent.notificationConfig = settings.notification_config;
  return agent;
}

/**
 * The plugin folders directly inside `root`, sorted by name so the duplicate-slug winner does not
 * depend on the file system's order. Hidden folders and node_modules are clearly not plugins and
 * are passed over silently; any other folder without a manifest is reported.
 */
async function pluginFolders(
  root: string,
  source: PluginSource,
  report: (error: PluginLoadError) => void,
): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // The data dir's plugins folder exists only once someone installs a plugin.
    if (code === 'ENOENT' && source === 'data-dir') return [];
    const what = source === 'cli' ? '--plugins folder' : source === 'builtin' ? 'built-in plugins folder' : 'plugins folder';
    const why =
      code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a folder' : `cannot be read: ${(err as Error).message}`;
    report({ dir: root, reason: `${what} ${root} ${why}` });
    return [];
  }
  const folders: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const dir = join(root, entry.name);
    if (!(await isFolder(entry, dir))) continue;
    if (!(await isFile(join(dir, MANIFEST_FILE)))) {
      report({ dir, reason: `${dir} has no ${MANIFEST_FILE}, so it is not a plugin (remove it or add a manifest)` });
      continue;
    }
    folders.push(dir);
  }
  return folders;
}

/** Folders, and links to folders (a plugin under development is often linked in). */
async function isFolder(entry: Dirent, path: string): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** `fn` over `items`, at most `limit` at a time, results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  return results;
}
