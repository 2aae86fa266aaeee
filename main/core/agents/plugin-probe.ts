/**
 * Child-process entry, started with `child_process.fork(thisFile, [entryPath])` by probe-runner.ts:
 * imports a plugin's entry and reports over IPC whether its default export is a function. Plugin
 * code is never imported into the host itself, because its top-level code could block, crash or
 * exit the process; here it can only take this short-lived child down with it.
 */
import { pathToFileURL } from 'node:url';

export type ProbeReport = { ok: true } | { ok: false; reason: string };

function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

async function probe(entryPath: string): Promise<ProbeReport> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(entryPath).href)) as Record<string, unknown>;
  } catch (err) {
    return { ok: false, reason: `entry failed to import: ${describeError(err)}` };
  }
  if (!('default' in mod)) {
    return { ok: false, reason: 'entry has no default export (expected `export default async function run(input, ctx)`)' };
  }
  if (typeof mod.default !== 'function') {
    return { ok: false, reason: `entry's default export is ${kindOf(mod.default)}, not the function run(input, ctx)` };
  }
  return { ok: true };
}

const entryPath = process.argv[2];
const send = process.send?.bind(process);
if (!send || !entryPath) {
  process.stderr.write('plugin-probe: start me with child_process.fork(probe, [entryPath])\n');
  process.exit(2);
}
const report = await probe(entryPath);
// Exit explicitly: timers or sockets the plugin opened at import would keep the child alive.
send(report, () => process.exit(0));
