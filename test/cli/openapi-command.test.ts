/**
 * `repairmon openapi`: the builder's document on stdout or in a file that appears whole, in the
 * dialect asked for; a bad flag exits 2 naming it and writes nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { openApiDocument } from '../../api/openapi/index.js';
import { main } from '../../cli/index.js';
import { PLACEHOLDER_PRODUCTION_BASE_URL } from '../../generators/app/answers.js';
import { SANDBOX_DEFAULT_BASE_URL } from '../../sandbox/defaults.js';
import { parseDialect } from '../../sandbox/index.js';
import { fakeIo } from '../helpers/fake-io.js';

const dir = mkdtempSync(join(tmpdir(), 'openapi-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectedDocument(dialect: string): unknown {
  const parsed = parseDialect(dialect);
  if (!parsed.ok) throw new Error(parsed.error);
  return openApiDocument(parsed.dialect, { test: SANDBOX_DEFAULT_BASE_URL, production: PLACEHOLDER_PRODUCTION_BASE_URL });
}

async function openapi(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = fakeIo();
  const code = await main(['openapi', ...args], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe('repairmon openapi', () => {
  it('prints the reference document as JSON by default, with the sandbox and production servers', async () => {
    const { code, stdout } = await openapi([]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(expectedDocument('reference'));
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
    expect(stderr).toContain(`wrote ${file} (OpenAPI 3.1, yaml, dialect legacy)`);
    expect(YAML.parse(readFileSync(file, 'utf8'))).toEqual(expectedDocument('legacy'));
    expect(readdirSync(sub)).toEqual(['openapi.yaml']);
  });

  it.each([
    [['--dialect', 'nope'], '--dialect: unknown preset "nope"'],
    [['--dialect', 'slug=camel'], '--dialect: slug: value "camel" is not allowed'],
    [['--format', 'xml'], '--format must be one of json, yaml, got "xml"'],
    [['--out', ''], '--out must not be empty'],
    [['--out', join(dir, 'missing', 'openapi.json')], `--out: cannot write ${join(dir, 'missing', 'openapi.json')} (ENOENT)`],
    [['--out', join(dir, 'is-a-dir')], `--out: cannot write ${join(dir, 'is-a-dir')} (`],
  ])('%j exits 2 naming the flag and writes nothing', async (args, message) => {
    const target = join(dir, 'bad');
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target);
    mkdirSync(join(dir, 'is-a-dir'), { recursive: true });
    const withOut = args.includes('--out') ? args : [...args, '--out', join(target, 'openapi.json')];
    const { code, stdout, stderr } = await openapi(withOut);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(`repairmon openapi: ${message}`);
    expect(readdirSync(target)).toEqual([]);
    expect(readdirSync(join(dir, 'is-a-dir'))).toEqual([]);
  });
});
