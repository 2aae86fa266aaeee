import { dataDirLayout, defaultDataDir, prepareDataDir } from '../core/config/data-dir.js';
import { openDatabase } from '../core/store/database.js';
import { TokenStore } from '../core/store/token-store.js';
import type { TokensCommand } from './args.js';

/** Token management works on the data dir directly, also while a host is running (WAL). */
export function runTokens(command: TokensCommand, print: (line: string) => void): number {
  const layout = dataDirLayout(command.dataDir ?? defaultDataDir());
  prepareDataDir(layout);
  const db = openDatabase(layout.database);
  try {
    const tokens = new TokenStore(db);
    switch (command.action) {
      case 'create': {
        const created = tokens.create(command.name);
        print(`Token ${created.token_id} (${created.name}) created. It is shown only this once:`);
        print(created.token);
        print('Send it as: Authorization: Bearer <token>');
        return 0;
      }
      case 'list': {
        const all = tokens.list();
        if (all.length === 0) print('No tokens.');
        for (const t of all) print(`${t.token_id}  ${t.name}  created ${t.created_at}  last used ${t.last_used_at ?? 'never'}`);
        return 0;
      }
      case 'revoke': {
        if (tokens.revoke(command.tokenId)) {
          print(`Token ${command.tokenId} revoked.`);
          return 0;
        }
        print(`agent-host: error: no token ${command.tokenId} (see agent-host tokens list)`);
        return 1;
      }
    }
  } finally {
    db.close();
  }
}
