/**
 * Bundles the preload script into build/preload/preload.cjs: a sandboxed preload cannot load
 * other files, and Electron only loads it as CommonJS. `electron` stays an import of the runtime.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: fileURLToPath(new URL('../build/preload', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome130',
    minify: false,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL('./preload.ts', import.meta.url)),
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rollupOptions: { external: ['electron'] },
  },
});
