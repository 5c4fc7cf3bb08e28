/**
 * The OpenAPI documents under Prism's validating proxy, in front of real sandboxes: the
 * document of what the spec guarantees in front of every preset dialect, and each preset's
 * narrowed document in front of its own, over the same request matrix (every key kind on
 * every path, then a 429 storm in the dialect's rate-limit header style). Prism reports what
 * breaks the document in its `sl-violations` header: no response may break it. A keyless call
 * on a keyed path breaks the document's security requirement on the request side, as it
 * should, and nothing else does. A document narrowed to a success status the sandbox does not
 * send must draw violations, so the check can fail. One Prism per document, all in one Node
 * process; the guaranteed one reaches every sandbox through a small router keyed by a header.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_RESOURCES } from '../../../api/contract/index.js';
import { type OpenApiDocument, openApiDocument, serializeOpenApi } from '../../../api/openapi/index.js';
import { freePort } from '../../../bench/lib/port.js';
import { styleDemoSlug } from '../../../sandbox/dialect/index.js';
import { PRESET_NAMES, type RunningSandbox, parseReadings, startSandbox } from '../../../sandbox/index.js';
import { type Watched, spawnProcess, waitFor } from '../../helpers/rig.js';
import { toolAvailable } from '../../helpers/tools.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const PRISM_HOST = join(import.meta.dirname, 'prism-host.mjs');
const hasPrism = toolAvailable(
  existsSync(join(ROOT, 'node_modules', '@stoplight', 'prism-cli')),
  'the Prism matrix',
  'npm install (devDependency @stoplight/prism-cli)',
);
const SERVERS = { test: 'http://127.0.0.1:4010/api/v1', production: 'https://api.example.test/api/v1' };
/** Which sandbox the router sends a call of the guaranteed document's Prism to. */
const ROUTE_HEADER = 'x-matrix-dialect';
const INVALID_KEY = `rs_test_${'0'.repeat(32)}`;
/** Every kind of caller: the key alias each presents (none: no key; invalid: a made-up one). */
const KEY_KINDS = {
  none: undefined,
  invalid: INVALID_KEY,
  revoked: 'nowak-revoked-test',
  'tenant own tenant': 'nowak-test',
  'tenant other tenant': 'kowalski-test',
  platform: 'platform-test',
  'no-scope key': 'nowak-nologs-test',
} as const;

interface Violation {
  readonly location: readonly string[];
  readonly severity: string;
  readonly code?: string | number;
  readonly message: string;
}

interface Outcome {
  readonly call: string;
  readonly status: number;
  readonly request: readonly Violation[];
  readonly response: readonly Violation[];
}

interface Proxy {
  readonly url: string;
}

/** The one Node process serving every Prism. */
let host: Watched | undefined;

/** The document of what the spec guarantees with its 2XX narrowed to a status nobody sends. */
function wrongDocument(): OpenApiDocument {
  const doc = structuredClone(openApiDocument({}, SERVERS)) as unknown as {
    paths: Record<string, { get: { responses: Record<string, unknown> } }>;
  };
  for (const item of Object.values(doc.paths)) {
    const { '2XX': success, ...rest } = item.get.responses;
    item.get.responses = { '201': success, ...rest };
  }
  return doc as unknown as OpenApiDocument;
}

/** A router in front of the sandboxes: the header names the dialect, the path goes on as it came. */
function startRouter(sandboxes: ReadonlyMap<string, RunningSandbox>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const target = sandboxes.get(String(req.headers[ROUTE_HEADER]));
    if (!target) {
      res.writeHead(502).end();
      return;
    }
    const upstream = httpRequest(
      { host: '127.0.0.1', port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}

/**
 * One `prism proxy` per document, all in one Node process (prism-host.mjs, the CLI's own command
 * per argv): a Prism's start-up is mostly loading its modules, the same for every document.
 */
async function startPrisms(routes: readonly { readonly file: string; readonly upstream: string }[]): Promise<Proxy[]> {
  // The ports are free when drawn, but another test worker's listen(0) can take one before a
  // Prism listens on it (a CI run met EADDRINUSE once): then start them all again on new ones.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startPrismsOnce(routes);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startPrismsOnce(routes: readonly { readonly file: string; readonly upstream: string }[]): Promise<Proxy[]> {
  // Distinct: two calls of freePort may return the same just-freed port (a CI run drew one twice).
  const ports = new Set<number>();
  while (ports.size < routes.length) ports.add(await freePort());
  // --no-multiprocess: with NODE_ENV=production Prism would fork its servers, not yet
  // listening when the host says they are.
  const flags = ['--host', '127.0.0.1', '--cors', 'false', '--no-multiprocess'];
  const portList = [...ports];
  const argvs = routes.map((r, i) => ['proxy', r.file, r.upstream, ...flags, '--port', `${portList[i]}`]);
  host = spawnProcess(process.execPath, [PRISM_HOST, JSON.stringify(argvs)]);
  const exited = (): boolean => host?.child.exitCode !== null;
  // Its line, not polling: a poll's client port could take a port a Prism is about to listen on.
  await waitFor(() => exited() || host?.stdout().includes('prism-host: all listening'), { what: 'the Prisms', timeoutMs: 240_000 });
  if (exited()) throw new Error(`prism-host exited\n${host.stdout().slice(-2_000)}${host.stderr()}`);
  return portList.map((port) => ({ url: `http://127.0.0.1:${port}` }));
}

/** Every path of the dialect: /, /docs, its /platform/ sub-paths, each resource of one tenant. */
function pathsOf(sandbox: RunningSandbox): string[] {
  const tenant = styleDemoSlug('rowery-nowak', sandbox.dialect.slug);
  return [
    '/',
    '/docs',
    ...sandbox.dialect.platformPaths.map((sub) => `/platform/${sub}`),
    ...TENANT_RESOURCES.map((r) => `/tenants/${tenant}/${r}`),
  ];
}

async function call(
  proxy: Proxy,
  path: string,
  key: string | undefined,
  scheme: number,
  route: Record<string, string>,
): Promise<Omit<Outcome, 'call'>> {
  const auth: Record<string, string> =
    key === undefined ? {} : scheme % 2 === 0 ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
  const res = await request(`${proxy.url}${path}`, { headers: { ...auth, ...route } });
  await res.body.dump();
  const header = res.headers['sl-violations'];
  const all = typeof header === 'string' ? (JSON.parse(header) as Violation[]) : [];
  return {
    status: res.statusCode,
    request: all.filter((v) => v.location[0] === 'request'),
    response: all.filter((v) => v.location[0] !== 'request'),
  };
}

/** The matrix in one dialect through one Prism: every key kind on every path, then a 429 storm. */
async function matrix(proxy: Proxy, sandbox: RunningSandbox, route: Record<string, string> = {}): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const calls = pathsOf(sandbox).flatMap((path) => Object.entries(KEY_KINDS).map(([kind, alias]) => ({ path, kind, alias })));
  const keyOf = (alias: string | undefined): string | undefined =>
    alias === undefined || alias === INVALID_KEY ? alias : sandbox.key(alias).key;
  // A few at a time: Prism validates one answer at a time anyway, and the machine is shared.
  for (let i = 0; i < calls.length; i += 6) {
    const batch = calls.slice(i, i + 6);
    const answers = await Promise.all(batch.map((c, j) => call(proxy, c.path, keyOf(c.alias), i + j, route)));
    answers.forEach((a, j) => outcomes.push({ call: `${sandbox.dialect.preset}: GET ${batch[j]?.path} with ${batch[j]?.kind}`, ...a }));
  }
  return outcomes;
}

/** The 429 storm: every path with a platform key and without one, in the dialect's header style. */
async function storm(proxy: Proxy, sandbox: RunningSandbox, spec: string, route: Record<string, string> = {}): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const path of pathsOf(sandbox))
    for (const alias of ['platform-test', undefined]) {
      const answer = await call(proxy, path, alias && sandbox.key(alias).key, outcomes.length, route);
      outcomes.push({ call: `${sandbox.dialect.preset} (${spec}): GET ${path} with ${alias ?? 'no key'}`, ...answer });
    }
  return outcomes;
}

describe.skipIf(!hasPrism)('the OpenAPI documents under Prism, over the request matrix in every preset', { timeout: 240_000 }, () => {
  let dir: string;
  const sandboxes = new Map<string, RunningSandbox>();
  let router: { server: Server; url: string };
  let guaranteed: Proxy;
  let wrong: Proxy;
  const narrowed = new Map<string, Proxy>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prism-matrix-'));
    for (const name of PRESET_NAMES) sandboxes.set(name, await startSandbox({ dialect: name, rateLimit: '1000000/1m' }));
    router = await startRouter(sandboxes);
    const write = (name: string, doc: OpenApiDocument): string => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, serializeOpenApi(doc, 'yaml'));
      return file;
    };
    const documents = PRESET_NAMES.map((name) => {
      const parsed = parseReadings(name);
      if (!parsed.ok) throw new Error(parsed.error);
      return { file: write(name, openApiDocument(parsed.readings, SERVERS)), upstream: sandboxes.get(name)!.baseUrl };
    });
    const started = await startPrisms([
      { file: write('guaranteed', openApiDocument({}, SERVERS)), upstream: `${router.url}/api/v1` },
      { file: write('wrong', wrongDocument()), upstream: sandboxes.get('reference')!.baseUrl },
      ...documents,
    ]);
    [guaranteed, wrong] = started as [Proxy, Proxy];
    PRESET_NAMES.forEach((name, i) => narrowed.set(name, started[i + 2]!));
  }, 300_000);

  afterAll(async () => {
    host?.child.kill('SIGTERM');
    await host?.exited;
    await new Promise((done) => router?.server.close(done));
    await Promise.all([...sandboxes.values()].map((s) => s.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** No response violation; on the request side only a missing key where the document wants one. */
  function expectClean(outcomes: readonly Outcome[]): void {
    expect(outcomes.filter((o) => o.response.length > 0).map((o) => ({ call: o.call, status: o.status, violations: o.response }))).toEqual(
      [],
    );
    for (const o of outcomes.filter((o) => o.request.length > 0)) {
      expect(o.call, JSON.stringify(o.request)).toMatch(/ with (none|no key)$/);
      expect(o.request).toEqual([expect.objectContaining({ code: 401, message: 'Invalid security scheme used' })]);
    }
  }

  it.each(PRESET_NAMES)('the guaranteed document holds for the %s dialect: every key kind on every path, and a 429 storm', async (name) => {
    const sandbox = sandboxes.get(name)!;
    const route = { [ROUTE_HEADER]: name };
    const outcomes = await matrix(guaranteed, sandbox, route);
    expect(outcomes.length).toBeGreaterThanOrEqual(7 * 7);
    const statuses = new Set(outcomes.map((o) => o.status));
    expect(statuses.has(200) && [...statuses].some((s) => s >= 400), 'the matrix draws successes and refusals').toBe(true);
    sandbox.setFaults('rate-limit-storm:2');
    try {
      outcomes.push(...(await storm(guaranteed, sandbox, 'rate-limit-storm:2', route)));
      sandbox.setFaults('rate-limit-storm');
      outcomes.push(...(await storm(guaranteed, sandbox, 'rate-limit-storm', route)));
    } finally {
      sandbox.setFaults('');
    }
    expect(outcomes.filter((o) => o.status === 429).length).toBeGreaterThan(10);
    expectClean(outcomes);
    // The one place a keyless call is fine on /: the guaranteed document leaves the index open.
    expect(outcomes.find((o) => o.call === `${name}: GET / with none`)?.request).toEqual([]);
  });

  it.each(PRESET_NAMES)('the %s document, narrowed to its readings, holds for its own dialect over the same matrix', async (name) => {
    const sandbox = sandboxes.get(name)!;
    const proxy = narrowed.get(name)!;
    const outcomes = await matrix(proxy, sandbox);
    sandbox.setFaults('rate-limit-storm:2');
    try {
      outcomes.push(...(await storm(proxy, sandbox, 'rate-limit-storm:2')));
    } finally {
      sandbox.setFaults('');
    }
    expectClean(outcomes);
  });

  it('a document whose success is narrowed to a status the sandbox does not send draws violations', async () => {
    const sandbox = sandboxes.get('reference')!;
    for (const path of ['/docs', '/tenants/rowery-nowak/clients']) {
      const { status, response } = await call(wrong, path, sandbox.key('platform-test').key, 0, {});
      expect(status).toBe(200);
      expect(response).toContainEqual(
        expect.objectContaining({ severity: 'Error', message: expect.stringContaining('Unable to match the returned status code') }),
      );
    }
  });

  it.each([
    ['broken-envelope', '/tenants/rowery-nowak/bikes', "must have required property 'ok'"],
    ['ok-without-data', '/tenants/rowery-nowak/logs', "must have required property 'data'"],
    ['plain-error-bodies', '/tenants/rowery-nowak/logs', 'media type'],
  ])('the guaranteed document draws a violation from a broken answer (%s on %s)', async (fault, path, message) => {
    const sandbox = sandboxes.get('reference')!;
    sandbox.setFaults(`${fault}@${path.replace('/tenants/rowery-nowak', '/tenants/*')}`);
    try {
      // The plain-text body comes on a refusal: a key the path refuses.
      const alias = fault === 'plain-error-bodies' ? 'nowak-nologs-test' : 'platform-test';
      const { response } = await call(guaranteed, path, sandbox.key(alias).key, 0, { [ROUTE_HEADER]: 'reference' });
      expect(response).toContainEqual(expect.objectContaining({ severity: 'Error', message: expect.stringContaining(message) }));
    } finally {
      sandbox.setFaults('');
    }
  });
});
