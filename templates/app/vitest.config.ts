import { defineConfig } from 'vitest/config';

/**
 * Node 25 and later turn Web Storage on: msw reads `localStorage` when it loads (its cookie store,
 * for browsers), and without `--localstorage-file` Node warns once per test file. The tests store
 * nothing, so their processes run without Web Storage (a flag Node has from 22.4; 20 has neither).
 */
const NO_WEB_STORAGE = '--no-experimental-webstorage';

export default defineConfig({
  test: { execArgv: process.allowedNodeEnvironmentFlags.has(NO_WEB_STORAGE) ? [NO_WEB_STORAGE] : [] },
});
