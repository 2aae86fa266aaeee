import { main } from './agent-host.js';

// `npm start`: the desktop app where Electron's binary is installed, otherwise the headless host
// (agent-host explains why in one line). Extra arguments pass through: `npm start -- --port 0`.
main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (err: unknown) => {
    process.stderr.write(`agent-host: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
