import { defineConfig } from 'vitest/config';

// One worker thread, modules loaded once for every test file: each file starts its own mock API
// server (test/mock-api.ts) and resets its handlers after each test, so no file leans on another's
// state. The default (a fresh process per file, each loading msw, undici and the client again)
// took about 60 % more CPU for these three files. One worker on any machine: a second one
// costs more to start (0.6 CPU s) than it saves on three small files.
// Node 25 and later turn Web Storage on: msw reads `localStorage` when it loads (its cookie store,
// for browsers), and without `--localstorage-file` Node warns. The tests store nothing, so the
// worker runs without Web Storage (a flag Node has from 22.4; Node 20 has neither).
const NO_WEB_STORAGE = '--no-experimental-webstorage';
const execArgv = process.allowedNodeEnvironmentFlags.has(NO_WEB_STORAGE) ? [NO_WEB_STORAGE] : [];

export default defineConfig({ test: { pool: 'threads', isolate: false, maxWorkers: 1, execArgv } });
