/**
 * The window's preload script. It runs sandboxed (no Node, only Electron's renderer modules), so
 * it is bundled into one CommonJS file with the shared channel names (preload/vite.config.ts).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge.js';

contextBridge.exposeInMainWorld('agentHost', createBridge(ipcRenderer));
