/**
 * Builds the desk UI (renderer/) into build/renderer/, which the control API serves and the
 * desktop window loads. Relative asset paths ('./'), so the same build works at any mount point.
 * `AGENT_HOST_URL=http://127.0.0.1:PORT npx vite` serves it with hot reload against a running host.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./build/renderer', import.meta.url));
const controlApi = process.env.AGENT_HOST_URL;

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // One small app: a single JS and CSS file load faster than a tree of chunks.
    chunkSizeWarningLimit: 800,
  },
  server: controlApi
    ? {
        proxy: {
          // The host checks Origin; the dev server's own origin is not one it knows, so present the host's.
          '/api': { target: controlApi, changeOrigin: true, headers: { origin: controlApi } },
        },
      }
    : {},
});
