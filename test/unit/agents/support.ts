/** Helpers shared by the plugin-agent tests: a real store in a temp dir, staged plugin folders. */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TaskStore } from '../../../build/main/core/store/task-store.js';
import { makeTempDir } from '../../support/temp-dir.js';

/**
 * The loader's fixture plugins, mostly broken on purpose. Not in test/fixtures/plugins: the API
 * tests load that whole folder into every host they start, and a plugin that hangs on import
 * would cost each start the full probe timeout.
 */
export const LOADER_FIXTURES = fileURLToPath(new URL('../../fixtures/loader-plugins/', import.meta.url));
export const BUILT_PLUGINS = fileURLToPath(new URL('../../../build/main/plugins/', import.meta.url));

export interface Sandbox {
  dir: string;
  db: Db;
  store: TaskStore;
  /** A fresh TaskStore on the same database, as a restarted host would have. */
  reopen(): TaskStore;
  cleanup(): void;
}

/** A temp dir holding a real, migrated SQLite store. */
export function sandbox(): Sandbox {
  const temp = makeTempDir('agent-host-agents-');
  const db = openDatabase(join(temp.dir, 'agent-host.db'));
  return {
    dir: temp.dir,
    db,
    store: new TaskStore(db),
    reopen: () => new TaskStore(db),
    cleanup: () => {
      db.close();
      temp.cleanup();
    },
  };
}

/** Copies fixture plugin folders into `<root>/<name>` so a test controls exactly what is scanned. */
export function stagePlugins(root: string, cases: readonly string[]): string {
  mkdirSync(root, { recursive: true });
  for (const name of cases) cpSync(join(LOADER_FIXTURES, name), join(root, name), { recursive: true });
  return root;
}

/** Writes a plugin folder from a manifest object (merged over a valid default) and entry source. */
export function writePlugin(
  dir: string,
  manifest: Record<string, unknown> = {},
  entrySource = 'export default async function run(input) { return input; }\n',
): string {
  mkdirSync(dir, { recursive: true });
  const full = {
    slug: 'sample',
    display_name: 'Sample',
    description: 'A sample plugin written by a test.',
    capabilities: ['testing'],
    version: '1.0.0',
    entry: 'index.js',
    input_schema: { type: 'object', properties: { text: { type: 'string' } } },
    ...manifest,
  };
  for (const [key, value] of Object.entries(full)) if (value === undefined) delete full[key as keyof typeof full];
  writeFileSync(join(dir, 'agent.json'), JSON.stringify(full, null, 2));
  writeFileSync(join(dir, 'index.js'), entrySource);
  return dir;
}
