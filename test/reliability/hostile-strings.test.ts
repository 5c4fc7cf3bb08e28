/**
 * What a hostile server can put in its strings, and where those strings end up: a key echoed
 * as JSON escapes, upper-cased or a few characters short; a 60 000-character `error.code`;
 * terminal control sequences. Every view that shows a server's text (the client's errors and
 * handler lines, the checklist table, `repairmon probe`, the monitor's pages and history) must
 * show none of the key, a bounded amount of text, and no control character.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { format, inspect, promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatChecklistTable, runChecklist } from '../../api/checklist/index.js';
import { ApiKey, type ApiError, createClient, nextStep } from '../../api/client/index.js';
import { scrubKeyEchoes } from '../../api/client/single-attempt.js';
import { boundText, printable, serverText } from '../../api/contract/index.js';
import { main } from '../../cli/index.js';
import type { Answers } from '../../generators/app/answers.js';
import { chooseLayout } from '../../generators/app/layout.js';
import { nextFiles } from '../../generators/app/project-plan.js';
import { createLogger } from '../../lib/logger.js';
import { CANARY_NAMES, type CanaryName } from '../../monitor/config/schema.js';
import { demoConfig } from '../../monitor/demo-config.js';
import { createMonitorServer } from '../../monitor/http/server.js';
import { createMonitor } from '../../monitor/service.js';
import { fakeIo } from '../helpers/fake-io.js';
import { makeCanary } from './helpers.js';
import { ROOT } from '../helpers/rig.js';
import {
  CONTROL_CHARACTERS,
  type HostileServer,
  TERMINAL_ATTACK,
  jsonEscaped,
  rawErrorEnvelope,
  startHostileServer,
} from './hostile-server.js';

const TENANT = 'rowery-nowak';
const KEY = makeCanary();
const silent = createLogger({ level: 'silent' });
let hostile: HostileServer;

beforeAll(async () => {
  hostile = await startHostileServer();
});
afterAll(async () => {
  await hostile?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Text decoded the way a reader would see it: JSON `\uXXXX` escapes count as the characters. */
function decoded(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Any 10 characters of the key after its public prefix, in any case, escaped or not. */
function showsKey(text: string, key = KEY): boolean {
  const plain = decoded(text).toLowerCase();
  const secret = key.slice(8).toLowerCase();
  for (let i = 0; i + 10 <= secret.length; i += 1) if (plain.includes(secret.slice(i, i + 10))) return true;
  return false;
}

/** Every way an integrator's code prints an error. */
function renderings(error: ApiError): string[] {
  return [
    error.message,
    String(error),
    error.stack ?? '',
    JSON.stringify(error),
    inspect(error, { depth: Infinity }),
    format('%o', error),
    `${error.message}: ${nextStep(error).why}`,
  ];
}

function client(options: Partial<Parameters<typeof createClient>[0]> = {}) {
  return createClient({ baseUrl: hostile.baseUrl, apiKey: new ApiKey(KEY, 'hostile'), tenant: TENANT, maxRetries: 0, ...options });
}

async function failure(call: () => Promise<unknown>): Promise<ApiError> {
  return call().then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as ApiError,
  );
}

async function clientError(options: Partial<Parameters<typeof createClient>[0]> = {}): Promise<ApiError> {
  const c = client(options);
  try {
    return await failure(() => c.list('clients'));
  } finally {
    await c.close();
  }
}

const ESCAPED_KEY = { status: 401, body: (key: string) => rawErrorEnvelope(jsonEscaped(key), `Nieprawidłowy klucz ${jsonEscaped(key)}`) };
/** A proxy's page quoting the key upper-cased and three characters short. */
const PARTIAL_KEY_PAGE = {
  status: 502,
  headers: { 'content-type': 'text/html' },
  body: (key: string) => `<html><body><h1>502</h1><p>upstream refused key ${key.slice(0, -3).toUpperCase()}</p></body></html>`,
};
/** A success whose data quotes the key upper-cased and three characters short: `/`'s body is shown in the debug view. */
const PARTIAL_KEY_DATA = {
  status: 200,
  body: (key: string) => JSON.stringify({ ok: true, data: [{ note: `klucz ${key.slice(0, -3).toUpperCase()}` }] }),
};
const HUGE_CODE = { status: 403, body: () => rawErrorEnvelope('x'.repeat(60_000), 'odmowa '.repeat(500)) };
const TERMINAL_CODE = {
  status: 403,
  body: () => rawErrorEnvelope(TERMINAL_ATTACK, `Odmowa ${TERMINAL_ATTACK}`),
  headers: { 'x-request-id': 'r-\u009b2J' },
};

describe('the pure parts: printable, bounds, key echoes', () => {
  it('escapes what a terminal acts on, keeps Polish and emoji, and is idempotent', () => {
    expect(printable('zły\u001b[2J\u009b\u202e\u2028klucz 🚲')).toBe('zły\\x1b[2J\\x9b\\u202e\\u2028klucz 🚲');
    const once = serverText(`a\u0007${'b'.repeat(400)}`, 64);
    expect(once).toHaveLength(64);
    expect(serverText(once, 64)).toBe(once);
    expect(boundText(`${'a'.repeat(62)}🚲🚲`, 64)).toBe(`${'a'.repeat(62)}…`);
  });

  it('finds the key escaped, in another case, or cut short, and leaves other text alone', () => {
    const key = new ApiKey(KEY, 'k');
    const mixedCaseTail = [...KEY.slice(-12)].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
    for (const echo of [jsonEscaped(KEY), KEY.toUpperCase(), KEY.slice(3, -3), mixedCaseTail]) {
      expect(scrubKeyEchoes(`klucz ${echo}!`, [key])).toBe(`klucz [REDACTED ${key.hint}]!`);
    }
    expect(scrubKeyEchoes('rs_test_ and nothing else', [key])).toBe('rs_test_ and nothing else');
  });
});

describe('the client: errors a hostile server produces', () => {
  it('a key echoed as JSON escapes in error.code and error.message is in no rendering of the error', async () => {
    hostile.set(ESCAPED_KEY);
    const error = await clientError();
    expect(hostile.seen.at(-1)?.keyed).toBe(true);
    expect(error.name).toBe('AuthenticationError');
    for (const text of renderings(error)) expect(showsKey(text), text.slice(0, 300)).toBe(false);
  });

  it('a key upper-cased and a few characters short in a proxy page is not in the body excerpt', async () => {
    hostile.set(PARTIAL_KEY_PAGE);
    const error = await clientError();
    expect(error.name).toBe('ServerError');
    expect(error.bodyExcerpt).toContain('upstream refused key');
    for (const text of renderings(error)) expect(showsKey(text), text.slice(0, 300)).toBe(false);
  });

  it('a request id quoting the first 20 characters of the key is in no rendering of the error, nor handleApiError-style lines', async () => {
    hostile.set({
      status: 503,
      body: () => rawErrorEnvelope('internal_error', 'awaria'),
      headers: { 'x-request-id': `echo-${KEY.slice(0, 20)}` },
    });
    const error = await clientError();
    expect(error.name).toBe('ServerError');
    expect(error.requestId).toMatch(/^echo-/);
    for (const text of [...renderings(error), `(request ${error.requestId})`]) expect(showsKey(text), text.slice(0, 300)).toBe(false);
  });

  it('a 60 000-character code and message are cut, marked as cut', async () => {
    hostile.set(HUGE_CODE);
    const error = await clientError();
    expect(error.code?.length).toBeLessThanOrEqual(64);
    expect(error.code).toMatch(/^x+…/);
    expect(error.serverMessage?.length).toBeLessThanOrEqual(300);
    expect(error.message.length).toBeLessThan(600);
    expect(JSON.stringify(error).length).toBeLessThan(2_000);
  });

  it('control sequences in code, message and request id reach no rendering of the error, nor the console log line', async () => {
    hostile.set(TERMINAL_CODE);
    const printed: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(format(...args)));
    const error = await clientError({ logger: console, logLevel: 'debug' });
    expect(error.name).toBe('PermissionDeniedError');
    expect(printed).toHaveLength(1);
    for (const text of [...renderings(error), ...printed]) expect(text).not.toMatch(CONTROL_CHARACTERS);
    // The sequences are still there to read, escaped.
    expect(printed[0]).toContain('\\x1b[2J');
  });
});

describe('the checklist table (`npm run check`) and `repairmon probe`', () => {
  it('the checklist prints control sequences escaped', async () => {
    hostile.set(TERMINAL_CODE);
    const { Agent } = await import('undici');
    const dispatcher = new Agent();
    try {
      const rows = await runChecklist({
        baseUrl: hostile.baseUrl,
        apiKey: new ApiKey(KEY, 'hostile'),
        authScheme: 'bearer',
        tenant: TENANT,
        dispatcher,
        timeoutMs: 2_000,
      });
      const table = formatChecklistTable(rows);
      expect(table).toContain('EVIL');
      expect(table).not.toMatch(CONTROL_CHARACTERS);
    } finally {
      await dispatcher.close();
    }
  });

  it.each([
    ['table', []],
    ['json', ['--json']],
  ])('repairmon probe (%s): no control character, no key', async (_view, extra) => {
    for (const reply of [TERMINAL_CODE, ESCAPED_KEY]) {
      hostile.set(reply);
      const io = fakeIo();
      const env = { HOSTILE_KEY: KEY };
      const code = await main(
        [
          'probe',
          '--base-url',
          hostile.baseUrl,
          '--tenant',
          TENANT,
          '--key-env',
          'HOSTILE_KEY',
          '--max-wait',
          '0',
          '--timeout',
          '2',
          ...extra,
        ],
        { ...io, env },
      );
      expect(code).toBe(1);
      const out = io.stdoutText() + io.stderrText();
      expect(out).not.toMatch(CONTROL_CHARACTERS);
      expect(showsKey(out), out).toBe(false);
    }
  });
});

describe('a generated project: `npm start` (src/index.ts) and `npm run check` (src/check.ts)', () => {
  let project: string;
  beforeAll(() => {
    // The project's TypeScript, compiled file by file without type-checking (the generator tests
    // type-check it): what runs is exactly what the templates and the shipped api/ say.
    project = mkdtempSync(join(tmpdir(), 'hostile-project-'));
    const answers: Answers = {
      name: 'p',
      packageName: 'p',
      tenant: TENANT,
      authScheme: 'bearer',
      testBaseUrl: hostile.baseUrl,
      productionBaseUrl: 'https://a.example/api/v1',
      envPrefix: 'RS',
      githubActions: false,
      pagination: false,
      parse: false,
    };
    for (const file of nextFiles(
      ROOT,
      answers,
      chooseLayout(undefined, () => false),
    )) {
      const isTs = file.path.startsWith('src/') && file.path.endsWith('.ts');
      const path = join(project, isTs ? file.path.replace(/\.ts$/, '.js') : file.path);
      mkdirSync(dirname(path), { recursive: true });
      const text = isTs
        ? ts.transpileModule(file.contents.toString(), {
            compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
          }).outputText
        : file.contents;
      writeFileSync(path, text);
    }
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  });
  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const run = async (script: string): Promise<string> => {
    const env = { PATH: process.env['PATH'] ?? '', RS_TEST_KEY: KEY };
    const done = await promisify(execFile)(process.execPath, [script], { cwd: project, env }).catch(
      (error: { stdout: string; stderr: string; code: number }) => error,
    );
    return done.stdout + done.stderr;
  };

  it('both print control sequences escaped', async () => {
    hostile.set(TERMINAL_CODE);
    const outputs = await Promise.all(['src/index.js', 'src/check.js'].map(run));
    for (const out of outputs) {
      expect(out).toContain('EVIL');
      expect(out).not.toMatch(CONTROL_CHARACTERS);
    }
    expect(outputs[0]).toMatch(/GET \/tenants\/rowery-nowak\/clients failed: HTTP 403 .*: use a key allowed to read clients/);
    expect(outputs[1]).toContain('scope covers clients');
  });
});

const NO_CANARIES = Object.fromEntries(CANARY_NAMES.map((n) => [n, false])) as Record<CanaryName, boolean>;

/** One monitor round against the hostile server, and its pages. */
async function monitorRound(): Promise<{ pages: Record<string, string>; entries: readonly { detail: string }[] }> {
  const source = {
    baseUrl: hostile.baseUrl,
    tenants: [TENANT],
    keys: [{ alias: 'hostile', kind: 'tenant' as const, tenant: TENANT, revoked: false, key: KEY }],
  };
  const monitor = createMonitor(demoConfig(source, { canaries: NO_CANARIES, timeoutMs: 2_000 }), { logger: silent });
  const server = await createMonitorServer(monitor, { host: '127.0.0.1', port: 0, logger: silent });
  try {
    await monitor.runOnce();
    const pages: Record<string, string> = {};
    // The debug view shows bodies of `/` (and /docs), excerpt included.
    for (const path of ['/', '/probes', '/probes.json', '/probe?target=sandbox&key=hostile&endpoint=index&debug=true'])
      pages[path] = await (await fetch(`${server.url}${path}`)).text();
    return { pages, entries: [...monitor.history.recent(), ...monitor.history.failures()] };
  } finally {
    await server.close();
    await monitor.stop();
  }
}

describe('the monitor: status page, /probes and /probes.json', () => {
  it.each([
    ['echoed as JSON escapes', ESCAPED_KEY, 'unauthorized'],
    ['upper-cased and cut short in a proxy page', PARTIAL_KEY_PAGE, 'server_error'],
    ['upper-cased and cut short in a success', PARTIAL_KEY_DATA, '"ok"'],
  ])('show no key %s', async (_how, reply, outcome) => {
    hostile.set(reply);
    const { pages, entries } = await monitorRound();
    expect(entries.length).toBeGreaterThan(0);
    expect(pages['/probes.json']).toContain(outcome);
    expect(pages['/probe?target=sandbox&key=hostile&endpoint=index&debug=true']).toContain('"outcome"');
    for (const [path, text] of Object.entries(pages)) expect(showsKey(text), `${path}: ${text.slice(0, 2000)}`).toBe(false);
  });

  it('store and show a 60 000-character code cut to its bound', async () => {
    hostile.set(HUGE_CODE);
    const { pages, entries } = await monitorRound();
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.detail.length).toBeLessThanOrEqual(400);
    for (const [path, text] of Object.entries(pages)) expect(text.length, path).toBeLessThan(entries.length * 3_000 + 20_000);
  });

  it('carry no control character in /probes.json and the debug view', async () => {
    hostile.set({ ...TERMINAL_CODE, headers: { ...TERMINAL_CODE.headers, 'x-served-by': 'edge-\u009b2J' } });
    const { pages } = await monitorRound();
    for (const path of ['/probes.json', '/probe?target=sandbox&key=hostile&endpoint=index&debug=true']) {
      expect(pages[path]).toContain('EVIL');
      expect(pages[path], path).not.toMatch(CONTROL_CHARACTERS);
    }
  });
});
