#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCommand, USAGE, UsageError } from './args.js';
import { prepareDesktop } from './desktop.js';
import { runHeadless } from './run-host.js';
import { runDeliveries } from './run-deliveries.js';
import { runTokens } from './run-tokens.js';
import { runUiLink } from './run-ui-link.js';
import { appVersion } from './version.js';

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const printError = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** The `agent-host` command. Resolves with the process's exit status. */
export async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseCommand(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    printError(`agent-host: error: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  try {
    switch (command.kind) {
      case 'help':
        print(USAGE);
        return 0;
      case 'version':
        print(appVersion());
        return 0;
      case 'tokens':
        return runTokens(command, print);
      case 'deliveries':
        return runDeliveries(command, print);
      case 'ui-link':
        return runUiLink(command, print, printError);
      case 'host': {
        if (!command.headless) {
          const desktop = await prepareDesktop(print);
          if (desktop.available) return await desktop.launch(argv);
          print(`Starting headless: ${desktop.reason}.`);
        }
        return await runHeadless(command, print);
      }
    }
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    printError(`agent-host: error: ${(err as Error).message}${typeof code === 'string' ? ` [${code}]` : ''}`);
    return 1;
  }
}

/** True when this file is the program being run (also through npm's bin symlink). */
function isEntryPoint(): boolean {
  const invoked = process.argv[1];
  if (!invoked) return false;
  try {
    return realpathSync(invoked) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (err: unknown) => {
      printError(`agent-host: unexpected error: ${(err as Error).stack ?? String(err)}`);
      process.exit(1);
    },
  );
}
