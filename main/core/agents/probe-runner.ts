import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ProbeReport } from './plugin-probe.js';
import { unpackedPath } from '../unpacked-path.js';

const PROBE_SCRIPT = unpackedPath(fileURLToPath(new URL('./plugin-probe.js', import.meta.url)));

/** Enough of the probe's stderr to explain a crash, without holding a chatty plugin's output. */
const STDERR_TAIL_CHARS = 4096;

export interface ProbeOptions {
  /** After this long the probe is killed and the entry reported as hanging. */
  timeoutMs: number;
  /** Heap limit (--max-old-space-size) of the probe process, in MiB. */
  heapMb: number;
}

/**
 * Imports `entryPath` in a throwaway child process (plugin-probe.ts) and resolves with why it is
 * not a usable plugin entry, or undefined when its default export is a function. Never rejects.
 */
export function probeEntry(entryPath: string, options: ProbeOptions): Promise<string | undefined> {
  return new Promise((resolvePromise) => {
    let settled = false;
    let stderrTail = '';
    let child: ChildProcess;
    try {
      // execArgv replaces the host's own flags: an --inspect port or a test runner's loader
      // must not be inherited by plugin code.
      child = fork(PROBE_SCRIPT, [entryPath], {
        execArgv: [`--max-old-space-size=${options.heapMb}`],
        // stdout is dropped (never read, it could fill the pipe and stall the child); stderr is
        // kept, read continuously, to explain crashes.
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
    } catch (err) {
      resolvePromise(`could not start the import probe: ${(err as Error).message}`);
      return;
    }
    const finish = (reason: string | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolvePromise(reason);
    };
    const timer = setTimeout(
      () => finish(`entry did not finish importing within ${formatDuration(options.timeoutMs)}`),
      options.timeoutMs,
    );
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on('message', (message: unknown) => {
      finish(isReport(message) ? (message.ok ? undefined : message.reason) : 'the import probe sent an unexpected message');
    });
    child.on('error', (err) => finish(`could not start the import probe: ${err.message}`));
    // 'close' rather than 'exit': by then stderr has been read to the end.
    child.on('close', (code, signal) => finish(exitReason(code, signal, stderrTail, options.heapMb)));
  });
}

function isReport(message: unknown): message is ProbeReport {
  if (message === null || typeof message !== 'object') return false;
  const { ok, reason } = message as { ok?: unknown; reason?: unknown };
  return ok === true || (ok === false && typeof reason === 'string');
}

function exitReason(code: number | null, signal: NodeJS.Signals | null, stderr: string, heapMb: number): string {
  if (/heap out of memory|Reached heap limit/i.test(stderr)) {
    return `entry ran out of memory while importing (heap limit ${heapMb} MB)`;
  }
  // Node's exit code 13: the module graph finished with a top-level await still pending.
  if (code === 13) return 'entry never finished importing: a top-level await never settled';
  const how = signal !== null ? `crashed the import probe (${signal})` : `ended the process with exit code ${code} while importing`;
  const detail = lastLine(stderr);
  return `entry ${how}${detail ? `: ${detail}` : ''}`;
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
