import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'renderer/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The host core runs under plain Node and inside Electron: it must never need Electron.
    files: ['main/**/*.ts'],
    ignores: ['main/shell/**'],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron'] }] },
  },
  {
    // The shell's modules take Electron as a parameter (tested with a stand-in under plain Node);
    // only its entry imports the real module.
    files: ['main/shell/**/*.ts'],
    ignores: ['main/shell/electron-main.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'electron', allowTypeImports: true }] }] },
  },
  {
    // The preload runs sandboxed: Electron's renderer modules only, no Node.
    files: ['preload/**/*.ts'],
    ignores: ['preload/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'A sandboxed preload cannot load Node modules.' }] }],
    },
  },
  {
    // The desk UI runs in a browser (or Electron's sandboxed renderer): browser globals only, no
    // Node modules and no Electron; native helpers come through the preload's window.agentHost.
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      // Advice for the React Compiler, which this build does not use; TanStack Virtual is meant to be called this way.
      'react-hooks/incompatible-library': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [{ group: ['node:*'], message: 'The renderer talks to the control API; it never imports Node modules.' }],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'require', 'Buffer', '__dirname'],
    },
  },
);
