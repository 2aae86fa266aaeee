import type { ApiTokenInfo, CreatedApiTokenInfo, SettingsInfo, SettingsPatch } from '../../../main/shared/control-api.js';
import { errorMessage } from '../api/http.js';
import type { LoadStatus, Slice } from './types.js';

export interface SettingsState {
  data?: SettingsInfo;
  status: LoadStatus;
  error?: string;
  requestedAt: number;
}
export interface TokensState {
  items: ApiTokenInfo[];
  status: LoadStatus;
  error?: string;
  requestedAt: number;
}

export interface SettingsSlice {
  settings: SettingsState;
  tokens: TokensState;
  loadSettings(): Promise<void>;
  /** Rejects with the ApiError, for the form to show. */
  saveSettings(patch: SettingsPatch): Promise<SettingsInfo>;
  loadTokens(): Promise<void>;
  createToken(name: string): Promise<CreatedApiTokenInfo>;
  revokeToken(tokenId: string): Promise<void>;
}

export const settingsSlice: Slice<SettingsSlice> = ({ api, now }) => (set, get) => {
  const patchSettings = (p: Partial<SettingsState>): void => set((s) => ({ settings: { ...s.settings, ...p } }));
  const patchTokens = (p: Partial<TokensState>): void => set((s) => ({ tokens: { ...s.tokens, ...p } }));
  return {
    settings: { status: 'idle', requestedAt: 0 },
    tokens: { items: [], status: 'idle', requestedAt: 0 },

    async loadSettings() {
      if (get().settings.status !== 'ready') patchSettings({ status: 'loading' });
      patchSettings({ requestedAt: now() });
      try {
        patchSettings({ data: await api.getSettings(), status: 'ready', error: undefined });
      } catch (err) {
        patchSettings({ status: 'error', error: errorMessage(err) });
      }
    },

    async saveSettings(p) {
      const data = await api.patchSettings(p);
      patchSettings({ data, status: 'ready' });
      return data;
    },

    async loadTokens() {
      if (get().tokens.status !== 'ready') patchTokens({ status: 'loading' });
      patchTokens({ requestedAt: now() });
      try {
        patchTokens({ items: await api.listTokens(), status: 'ready', error: undefined });
      } catch (err) {
        patchTokens({ status: 'error', error: errorMessage(err) });
      }
    },

    async createToken(name) {
      const created = await api.createToken(name);
      const { token: _secret, ...info } = created;
      // The secret stays with the dialog that shows it once; the list holds only the public part.
      patchTokens({ items: [...get().tokens.items.filter((t) => t.token_id !== info.token_id), info] });
      return created;
    },

    async revokeToken(tokenId) {
      await api.revokeToken(tokenId);
      patchTokens({ items: get().tokens.items.filter((t) => t.token_id !== tokenId) });
    },
  };
};
