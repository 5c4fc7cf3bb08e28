/**
 * `.env.example` sourced by a real shell (issue 31, finding 6): `set -a; . ./.env.example` is
 * what people do, and a value from an answer (`--test-base-url`, or the same answer stored in
 * `.yo-rc.json` and rendered again by `upgrade`) must not run anything there. Values are
 * single-quoted; one no quoting keeps literal for both sh and Node is refused (exit 2, by flag).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/rig.js';
import { CONFIG_KEY } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'env-shell-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Creates `pwned` in the working folder if a shell ever runs it. */
const INJECTED = 'http://127.0.0.1:1/a$(touch${IFS}pwned)/api/v1';
const NAME = 'REPAIR_API_TEST_BASE_URL';

/** What a shell that sources the file sees in the variable (`pwned` appears if it ran anything). */
function sourced(project: string): string {
  return execFileSync('sh', ['-c', `set -a; . ./.env.example; printf %s "$${NAME}"`], { cwd: project, encoding: 'utf8' });
}

const create = (name: string, url: string) =>
  runCli(['new', name, '-y', '--skip-install', '--name', name, '--test-base-url', url], { cwd: work, timeoutMs: 60_000 });

describe('.env.example in a real sh', { timeout: 120_000 }, () => {
  it('new: a base URL holding $(...) is written single-quoted; sh and Node both read it literally, nothing runs', async () => {
    const made = await create('quoted', INJECTED);
    expect(made.code, made.stderr).toBe(0);
    const project = join(work, 'quoted');
    const text = readFileSync(join(project, '.env.example'), 'utf8');
    expect(text).toContain(`${NAME}='${INJECTED}'\n`);
    expect(sourced(project)).toBe(INJECTED);
    expect(existsSync(join(project, 'pwned'))).toBe(false);
    expect(parseEnv(text)[NAME]).toBe(INJECTED);
  });

  it("new: the issue's value (' with ${HOME}, backticks and $(id)) is refused, exit 2 naming --test-base-url, nothing written", async () => {
    const refused = await create('ok11', "http://127.0.0.1:1/a'${HOME}`$(id)`/api/v1");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--test-base-url contains \' together with $, `, " or \\');
    expect(existsSync(join(work, 'ok11'))).toBe(false);
  });

  it('upgrade: the same values stored in .yo-rc.json are quoted when .env.example is written again, or refused by flag', async () => {
    const made = await create('stored', 'http://127.0.0.1:4010/api/v1');
    expect(made.code, made.stderr).toBe(0);
    const project = join(work, 'stored');
    const rcFile = join(project, '.yo-rc.json');
    const store = (url: string) => {
      const rc = JSON.parse(readFileSync(rcFile, 'utf8')) as Record<string, Record<string, unknown>>;
      rc[CONFIG_KEY]!['testBaseUrl'] = url;
      writeFileSync(rcFile, JSON.stringify(rc, null, 2));
    };
    store("http://127.0.0.1:1/a'`$(id)`/api/v1");
    rmSync(join(project, '.env.example'));
    const refused = await runCli(['upgrade', '--skip-install'], { cwd: project, timeoutMs: 60_000 });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("(--test-base-url) contains ' together with");
    expect(existsSync(join(project, '.env.example'))).toBe(false);

    store(INJECTED);
    const upgraded = await runCli(['upgrade', '--skip-install'], { cwd: project, timeoutMs: 60_000 });
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(sourced(project)).toBe(INJECTED);
    expect(existsSync(join(project, 'pwned'))).toBe(false);
  });
});
