/**
 * The OpenAPI document under the tools integrators use: redocly lints it (every preset), Prism
 * as a validating proxy in front of a real sandbox sees no violation over the conformance
 * requests and does see a deliberately wrong answer, and the document converted to a Postman
 * collection runs under newman with every request getting its documented status. Each tool
 * starts once. Prism accepts everything when the document is invalid, so lint comes first.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, serializeOpenApi } from '../../../api/openapi/index.js';
import { type ChildProgram, childEnv, startProgram } from '../../../bench/lib/child.js';
import { freePort } from '../../../bench/lib/port.js';
import { waitForOk } from '../../../bench/lib/wait-http.js';
import { PRESET_NAMES, type RunningSandbox, parseDialect, startSandbox } from '../../../sandbox/index.js';
import { runCli } from '../../helpers/rig.js';
import { toolAvailable } from '../../helpers/tools.js';
import { TENANT_RESOURCES } from '../../../api/contract/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'node_modules', '.bin');
const TOOLS: Readonly<Record<string, string>> = {
  redocly: '@redocly/cli',
  prism: '@stoplight/prism-cli',
  openapi2postmanv2: 'openapi-to-postmanv2',
  newman: 'newman',
};
const hasTools = toolAvailable(
  Object.keys(TOOLS).every((name) => existsSync(join(BIN, name))),
  'the OpenAPI tool checks',
  `npm install (devDependencies ${Object.values(TOOLS).join(', ')})`,
);
const run = promisify(execFile);
const ENV = childEnv({ REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });
const SERVERS = { test: 'http://127.0.0.1:4010/api/v1', production: 'https://api.example.test/api/v1' };

/**
 * Warnings the recommended ruleset gives and why they stay: the spec names no license, and a
 * public endpoint (/docs, a public /) refuses nothing, so it documents no 4XX.
 */
const KNOWN_WARNINGS = [
  'info-license #/info',
  'operation-4xx-response #/paths/~1docs/get/responses',
  'operation-4xx-response #/paths/~1/get/responses',
];

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly {
    readonly ruleId: string;
    readonly severity: string;
    readonly message: string;
    readonly location: readonly { readonly pointer: string; readonly source: { readonly ref: string } }[];
  }[];
}

/** redocly writes one JSON report per file, back to back. */
function lintReports(text: string): LintReport[] {
  return JSON.parse(`[${text.replace(/}\s*{\s*"totals"/g, '},{"totals"')}]`) as LintReport[];
}

interface Violation {
  readonly location: readonly string[];
  readonly severity: string;
  readonly code: string | number;
  readonly message: string;
}

interface Call {
  readonly label: string;
  readonly path: string;
  readonly key?: string;
  readonly scheme?: 'bearer' | 'x-api-key';
  readonly status: number;
}

describe.skipIf(!hasTools)('the OpenAPI document under redocly, Prism and newman', { timeout: 60_000 }, () => {
  let dir: string;
  let reference: string;
  let sandbox: RunningSandbox;
  let prism: ChildProgram;
  let prismUrl: string;
  let lint: Promise<{ stdout: string }>;
  let collection: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-tools-'));
    reference = join(dir, 'reference.json');
    // The reference document as a user writes it; the other presets straight from the builder.
    const written = await runCli(['openapi', '--out', reference], { env: ENV });
    if (written.code !== 0) throw new Error(`repairmon openapi: ${written.stderr}`);
    const others = PRESET_NAMES.filter((name) => name !== 'reference').map((name) => {
      const parsed = parseDialect(name);
      if (!parsed.ok) throw new Error(parsed.error);
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, serializeOpenApi(openApiDocument(parsed.dialect, SERVERS), 'yaml'));
      return file;
    });
    const unknown = parseDialect('reference');
    if (!unknown.ok) throw new Error(unknown.error);
    const open = join(dir, 'unknown-readings.json');
    writeFileSync(open, serializeOpenApi(openApiDocument({ ...unknown.dialect, index: 'unknown', platformPaths: [] }, SERVERS), 'json'));
    // redocly exits 1 on errors; its report says which, so read it either way.
    lint = run(join(BIN, 'redocly'), ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format=json', reference, ...others, open], {
      env: ENV,
      cwd: dir,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    collection = join(dir, 'collection.json');
    const converted = run(
      join(BIN, 'openapi2postmanv2'),
      ['-s', reference, '-o', collection, '-O', 'folderStrategy=Tags,parametersResolution=Example'],
      { env: ENV },
    );
    sandbox = await startSandbox({ dialect: 'reference', rateLimit: '1000000/1m' });
    const port = await freePort();
    prismUrl = `http://127.0.0.1:${port}`;
    prism = startProgram(join(BIN, 'prism'), ['proxy', reference, sandbox.baseUrl, '--host', '127.0.0.1', '--port', String(port)], ENV);
    await Promise.all([
      waitForOk(`${prismUrl}/docs`, 30_000, () => prism.alive()).catch((error: Error) =>
        Promise.reject(new Error(`${error.message}\n${prism.tail()}`)),
      ),
      converted,
      lint,
    ]);
  });

  afterAll(async () => {
    await prism?.stop();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('redocly lints every preset and the unknown readings with 0 errors and only the known warnings', async () => {
    const reports = lintReports((await lint).stdout);
    expect(reports).toHaveLength(PRESET_NAMES.length + 1);
    const problems = reports.flatMap((r) =>
      r.problems.map((p) => ({
        file: p.location[0]?.source.ref,
        rule: `${p.ruleId} ${p.location[0]?.pointer}`,
        severity: p.severity,
        message: p.message,
      })),
    );
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(problems.filter((p) => !KNOWN_WARNINGS.includes(p.rule))).toEqual([]);
    expect(reports.every((r) => r.totals.errors === 0)).toBe(true);
  });

  /** One call through Prism: its status and the violations Prism saw. */
  async function viaPrism(call: Pick<Call, 'path' | 'key' | 'scheme'>): Promise<{ status: number; violations: Violation[] }> {
    const headers: Record<string, string> =
      call.key === undefined ? {} : call.scheme === 'bearer' ? { authorization: `Bearer ${call.key}` } : { 'x-api-key': call.key };
    const res = await request(`${prismUrl}${call.path}`, { headers });
    await res.body.dump();
    const header = res.headers['sl-violations'];
    return { status: res.statusCode, violations: typeof header === 'string' ? (JSON.parse(header) as Violation[]) : [] };
  }

  function conformanceCalls(): Call[] {
    const key = (alias: string): string => sandbox.key(alias).key;
    const keyed = [
      '/',
      ...sandbox.platformPaths.map((sub) => `/platform/${sub}`),
      ...TENANT_RESOURCES.map((r) => `/tenants/rowery-nowak/${r}`),
    ];
    const tenantPaths = keyed.filter((p) => p.startsWith('/tenants/'));
    return [
      { label: 'no key', path: '/docs', status: 200 },
      ...(['bearer', 'x-api-key'] as const).flatMap((scheme) =>
        keyed.map((path) => ({ label: `platform key (${scheme})`, path, key: key('platform-test'), scheme, status: 200 })),
      ),
      ...['/', ...tenantPaths].map((path) => ({ label: 'tenant key', path, key: key('nowak-test'), status: 200 })),
      ...sandbox.platformPaths.map((sub) => ({ label: 'tenant key', path: `/platform/${sub}`, key: key('nowak-test'), status: 403 })),
      ...tenantPaths.map((path) => ({ label: "another tenant's key", path, key: key('kowalski-test'), status: 403 })),
      ...keyed.map((path) => ({ label: 'invalid key', path, key: `rs_test_${'0'.repeat(32)}`, status: 401 })),
      { label: 'revoked key', path: '/tenants/rowery-nowak/clients', key: key('nowak-revoked-test'), status: 401 },
      ...keyed.map((path) => ({ label: 'no key', path, status: 401 })),
      { label: 'scope refusal', path: '/tenants/rowery-nowak/logs', key: key('nowak-nologs-test'), status: 403 },
      { label: 'unknown tenant', path: '/tenants/no-such-shop/clients', key: key('platform-test'), status: 404 },
      { label: 'slug outside the style', path: '/tenants/Rowery_Nowak/clients', key: key('platform-test'), status: 400 },
    ];
  }

  it('Prism in front of the sandbox sees no violation over the conformance requests', async () => {
    const calls = conformanceCalls();
    expect(calls.length).toBeGreaterThan(40);
    for (const call of calls) {
      const { status, violations } = await viaPrism(call);
      const where = `GET ${call.path} with ${call.label}`;
      expect(status, where).toBe(call.status);
      // The one expected finding: a request with no key breaks the document's security requirement.
      const expected =
        call.key === undefined && call.path !== '/docs'
          ? [{ location: ['request'], severity: 'Error', code: 401, message: 'Invalid security scheme used' }]
          : [];
      expect(violations, where).toEqual(expected);
    }
  });

  it('Prism sees no violation in a 429 from a rate-limit fault, with its Retry-After', async () => {
    sandbox.setFaults('rate-limit-storm:2@/tenants/*/clients');
    try {
      expect(await viaPrism({ path: '/tenants/rowery-nowak/clients', key: sandbox.key('platform-test').key })).toEqual({
        status: 429,
        violations: [],
      });
    } finally {
      sandbox.setFaults('');
    }
  });

  it.each([
    ['broken-envelope', '/tenants/rowery-nowak/bikes', "must have required property 'ok'"],
    ['ok-without-data', '/tenants/rowery-nowak/logs', "must have required property 'data'"],
    ['broken-envelope', '/tenants/rowery-nowak/logs', "must have required property 'ok'"],
  ])('Prism reports a deliberately wrong answer (%s on %s)', async (fault, path, message) => {
    sandbox.setFaults(`${fault}@${path.replace('/tenants/rowery-nowak', '/tenants/*')}`);
    try {
      const { violations } = await viaPrism({ path, key: sandbox.key('platform-test').key });
      expect(violations).toContainEqual(
        expect.objectContaining({ location: ['response', 'body'], severity: 'Error', message: expect.stringContaining(message) }),
      );
    } finally {
      sandbox.setFaults('');
    }
  });

  it('the Postman collection runs under newman with every request getting its documented status', async () => {
    interface Item {
      readonly id: string;
      readonly name: string;
      readonly response?: readonly { readonly code: number }[];
      readonly item?: readonly Item[];
    }
    const folders = (JSON.parse(readFileSync(collection, 'utf8')) as { item: Item[] }).item;
    const requests = folders.flatMap((folder) => (folder.item ?? []).map((item) => ({ folder: folder.name, ...item })));
    expect(folders.map((f) => f.name).sort()).toEqual(['informational', 'platform', 'tenant']);
    expect(requests).toHaveLength(2 + sandbox.platformPaths.length + 4);
    const iterations = [
      { label: 'platform key', bearerToken: sandbox.key('platform-test').key },
      { label: 'invalid key', bearerToken: `rs_test_${'0'.repeat(32)}` },
      { label: "another tenant's key", bearerToken: sandbox.key('kowalski-test').key },
    ];
    const data = join(dir, 'iterations.json');
    const report = join(dir, 'newman.json');
    writeFileSync(data, JSON.stringify(iterations));
    await run(
      join(BIN, 'newman'),
      [
        'run',
        collection,
        '--env-var',
        `base_url=${sandbox.baseUrl}`,
        '-d',
        data,
        '--reporters',
        'json',
        '--reporter-json-export',
        report,
        '--color',
        'off',
      ],
      { env: ENV },
    );
    const executions = (
      JSON.parse(readFileSync(report, 'utf8')) as {
        run: { executions: { item: { id: string }; cursor: { iteration: number }; response: { code: number } }[] };
      }
    ).run.executions;
    expect(executions).toHaveLength(requests.length * iterations.length);
    for (const execution of executions) {
      const item = requests.find((r) => r.id === execution.item.id);
      const iteration = iterations[execution.cursor.iteration];
      const documented = (item?.response ?? []).map((r) => r.code);
      const keyed = documented.includes(401);
      const want =
        iteration?.label === 'platform key' || !keyed
          ? 200
          : iteration?.label === 'invalid key'
            ? 401
            : item?.folder === 'informational'
              ? 200
              : 403;
      const where = `${item?.folder}: ${item?.name} with ${iteration?.label}`;
      expect(execution.response.code, where).toBe(want);
      expect(documented, where).toContain(want);
    }
  });
});
