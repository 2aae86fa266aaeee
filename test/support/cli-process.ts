import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../build/main/cli/agent-host.js', import.meta.url));
export const LAUNCHER = fileURLToPath(new URL('../../build/main/cli/launch.js', import.meta.url));

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout (waits for it). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the real agent-host command in its own process. */
export function runCli(args: string[], script = CLI, env: NodeJS.ProcessEnv = process.env): CliProcess {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: 'pipe' });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiters) w();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const w of waiters) w();
      resolve({ code, signal });
    });
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput: (pattern, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = out.match(pattern);
          if (match) {
            cleanup();
            resolve(match);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            cleanup();
            reject(new Error(`process exited before printing ${pattern}\nstdout: ${out}\nstderr: ${err}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
  };
}

/** Polls a task over HTTP until `predicate` holds: the host is another process here, so no events. */
export async function pollTask<T extends { status: string }>(url: string, predicate: (task: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    const res = await fetch(url);
    last = (await res.json()) as T;
    if (predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never matched; last: ${JSON.stringify(last)}`);
}
