/**
 * The OpenAPI documents under the tools integrators use: redocly lints the guaranteed one and
 * every preset's, and the guaranteed document converted to a Postman collection runs under
 * newman with every request getting a documented status. Each tool starts once. Prism in
 * front of the sandboxes: prism-matrix.test.ts.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, serializeOpenApi } from '../../../api/openapi/index.js';
import { childEnv } from '../../../bench/lib/child.js';
import { PRESET_NAMES, type RunningSandbox, parseReadings, startSandbox } from '../../../sandbox/index.js';
import { runCli } from '../../helpers/rig.js';
import { toolAvailable } from '../../helpers/tools.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'node_modules', '.bin');
const TOOLS: Readonly<Record<string, string>> = {
  redocly: '@redocly/cli',
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

/** Warnings the recommended ruleset gives and why they stay: the spec names no license. */
const KNOWN_WARNINGS = ['info-license #/info'];

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

describe.skipIf(!hasTools)('the OpenAPI documents under redocly and newman', { timeout: 60_000 }, () => {
  let dir: string;
  let reference: string;
  let sandbox: RunningSandbox;
  let lint: Promise<{ stdout: string }>;
  let collection: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-tools-'));
    reference = join(dir, 'guaranteed.json');
    // The guaranteed document as a user writes it; the presets' narrowed ones from the builder.
    const written = await runCli(['openapi', '--out', reference], { env: ENV });
    if (written.code !== 0) throw new Error(`repairmon openapi: ${written.stderr}`);
    const others = PRESET_NAMES.map((name) => {
      const parsed = parseReadings(name);
      if (!parsed.ok) throw new Error(parsed.error);
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, serializeOpenApi(openApiDocument(parsed.readings, SERVERS), 'yaml'));
      return file;
    });
    const open = join(dir, 'reference-index-open.json');
    const indexOpen = parseReadings('reference,index=unknown');
    if (!indexOpen.ok) throw new Error(indexOpen.error);
    writeFileSync(open, serializeOpenApi(openApiDocument(indexOpen.readings, SERVERS), 'json'));
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
    await Promise.all([converted, lint]);
    // redocly and the converter start Node programs of their own: slow on a loaded machine.
  }, 180_000);

  afterAll(async () => {
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("redocly lints the guaranteed document, every preset's and one with / left open: 0 errors, only the known warning", async () => {
    const reports = lintReports((await lint).stdout);
    expect(reports).toHaveLength(PRESET_NAMES.length + 2);
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

  it('the guaranteed document as a Postman collection runs under newman, every request getting a documented status', async () => {
    interface Item {
      readonly id: string;
      readonly name: string;
      readonly response?: readonly { readonly code: number }[];
      readonly item?: readonly Item[];
    }
    const folders = (JSON.parse(readFileSync(collection, 'utf8')) as { item: Item[] }).item;
    const requests = folders.flatMap((folder) => (folder.item ?? []).map((item) => ({ folder: folder.name, ...item })));
    expect(folders.map((f) => f.name).sort()).toEqual(['informational', 'platform', 'tenant']);
    expect(requests).toHaveLength(2 + sandbox.dialect.platformPaths.length + 4);
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
      const keyed = item?.folder !== 'informational' || item.name.startsWith('API index');
      // The guaranteed document names no /platform/ sub-path: the request's made-up one is unknown.
      const want =
        iteration?.label === 'invalid key' && keyed
          ? 401
          : item?.folder === 'platform'
            ? iteration?.label === 'platform key'
              ? 404
              : 403
            : iteration?.label === "another tenant's key" && item?.folder === 'tenant'
              ? 403
              : 200;
      const where = `${item?.folder}: ${item?.name} with ${iteration?.label}`;
      expect(execution.response.code, where).toBe(want);
      expect(documented, where).toContain(want);
    }
  });
});
