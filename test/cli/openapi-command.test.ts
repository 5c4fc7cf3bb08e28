/**
 * `repairmon openapi`: the builder's document on stdout or in a file that appears whole: the
 * guaranteed one by default, narrowed to a preset, to KEY=VALUE readings or to a discovery
 * report; a bad flag exits 2 naming it and writes nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { openApiDocument } from '../../api/openapi/index.js';
import { main } from '../../cli/index.js';
import { PLACEHOLDER_PRODUCTION_BASE_URL } from '../../generators/app/answers.js';
import { SANDBOX_DEFAULT_BASE_URL } from '../../sandbox/index.js';
import { parseReadings } from '../../sandbox/index.js';
import { fakeIo } from '../helpers/fake-io.js';

const dir = mkdtempSync(join(tmpdir(), 'openapi-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectedDocument(dialect: string): unknown {
  const parsed = parseReadings(dialect);
  if (!parsed.ok) throw new Error(parsed.error);
  return openApiDocument(parsed.readings, { test: SANDBOX_DEFAULT_BASE_URL, production: PLACEHOLDER_PRODUCTION_BASE_URL });
}

async function openapi(args: readonly string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = fakeIo();
  if (stdin !== undefined) io.stdin.end(stdin);
  const code = await main(['openapi', ...args], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe('repairmon openapi', () => {
  it('prints the guaranteed document (every open point open) as JSON by default', async () => {
    const { code, stdout } = await openapi([]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(
      openApiDocument({}, { test: SANDBOX_DEFAULT_BASE_URL, production: PLACEHOLDER_PRODUCTION_BASE_URL }),
    );
    expect(Object.keys((JSON.parse(stdout) as { paths: object }).paths)).toContain('/platform/{subpath}');
  });

  it('takes every value a reading has, index=unknown too, and KEY=VALUE pairs narrow only their points', async () => {
    const { code, stdout } = await openapi(['--dialect', 'index=unknown,unauthorized-status=403']);
    expect(code).toBe(0);
    const notes = (JSON.parse(stdout) as { 'x-readings': Record<string, { reading?: unknown }> })['x-readings'];
    expect(notes['index']).not.toHaveProperty('reading');
    expect(notes['unauthorized-status']?.reading).toBe(403);
    expect(notes['slug']).not.toHaveProperty('reading');
  });

  it('narrows to what a discovery report learned, from a file (@FILE) or stdin (@-), the rest left open', async () => {
    const report = {
      tool: 'repairmon discover',
      findings: {
        indexAccess: { kind: 'learned', reading: 'public', evidence: 'GET / without a key -> HTTP 200' },
        invalidKey: { kind: 'learned', reading: { status: 403, code: 'unauthorized' }, evidence: 'x' },
        platformPaths: { kind: 'learned', reading: ['admin/tenants'], evidence: 'x' },
        scopeRefusal: { kind: 'unknown', why: 'no key' },
      },
    };
    const file = join(dir, 'report.json');
    writeFileSync(file, JSON.stringify(report));
    const fromFile = await openapi(['--dialect', `@${file}`]);
    const fromStdin = await openapi(['--dialect', '@-'], JSON.stringify(report));
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect(JSON.parse(fromFile.stdout)).toEqual(expectedDocument('index=public,unauthorized-status=403,platform-paths=admin/tenants'));
  });

  it('describes the dialect asked for, as YAML with --format yaml', async () => {
    const { code, stdout } = await openapi(['--dialect', 'snake-public,missing-key=no_key', '--format', 'yaml']);
    expect(code).toBe(0);
    const document = YAML.parse(stdout) as { 'x-readings': Record<string, { reading: unknown }> };
    expect(document).toEqual(expectedDocument('snake-public,missing-key=no_key'));
    expect(document['x-readings']['missing-key']?.reading).toBe('no_key');
  });

  it('writes --out whole (YAML for a .yaml name), replacing what was there and leaving no temp file', async () => {
    const sub = join(dir, 'out');
    mkdirSync(sub);
    const file = join(sub, 'openapi.yaml');
    writeFileSync(file, 'old');
    const { code, stdout, stderr } = await openapi(['--out', file, '--dialect', 'legacy']);
    expect({ code, stdout }).toEqual({ code: 0, stdout: '' });
    expect(stderr).toContain(`wrote ${file} (OpenAPI 3.1, yaml, readings: legacy)`);
    expect(YAML.parse(readFileSync(file, 'utf8'))).toEqual(expectedDocument('legacy'));
    expect(readdirSync(sub)).toEqual(['openapi.yaml']);
  });

  it.each([
    [['--dialect', 'nope'], '--dialect: unknown preset "nope"'],
    [['--dialect', 'slug=camel'], '--dialect: slug: value "camel" is not allowed'],
    [['--dialect', 'error-bodies=plain'], '--dialect: unknown key "error-bodies"'],
    [
      ['--dialect', 'report.json'],
      '--dialect: unknown preset "report.json"; allowed presets: reference, snake-public, strict-hiding, gateway, legacy, bare (a discovery report is read as @report.json)',
    ],
    [['--dialect', `@${join(dir, 'no-such.json')}`], `--dialect: cannot read ${join(dir, 'no-such.json')} (ENOENT)`],
    [
      ['--dialect', `@${join(dir, 'not-a-report.json')}`],
      `--dialect: ${join(dir, 'not-a-report.json')} is not what \`repairmon discover --json\` prints`,
    ],
    [['--format', 'xml'], '--format must be one of json, yaml, got "xml"'],
    [['--out', ''], '--out must not be empty'],
    [['--out', join(dir, 'missing', 'openapi.json')], `--out: cannot write ${join(dir, 'missing', 'openapi.json')} (ENOENT)`],
    [['--out', join(dir, 'is-a-dir')], `--out: cannot write ${join(dir, 'is-a-dir')} (`],
  ])('%j exits 2 naming the flag and writes nothing', async (args, message) => {
    const target = join(dir, 'bad');
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target);
    mkdirSync(join(dir, 'is-a-dir'), { recursive: true });
    writeFileSync(join(dir, 'not-a-report.json'), '{"findings": {}}');
    const withOut = args.includes('--out') ? args : [...args, '--out', join(target, 'openapi.json')];
    const { code, stdout, stderr } = await openapi(withOut);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(`repairmon openapi: ${message}`);
    expect(readdirSync(target)).toEqual([]);
    expect(readdirSync(join(dir, 'is-a-dir'))).toEqual([]);
  });
});
