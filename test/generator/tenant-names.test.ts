/**
 * Every tenant name the generator accepts yields a project whose tests pass; every name it
 * refuses writes nothing. The spec shows no slug format, so the generator takes what the
 * contract's own check takes (`validateTenantSlug`): Unicode, spaces, `%`, `..` inside a name,
 * quotes, 256 characters. The names are fixed tricky ones plus a fast-check sample (its seed is
 * printed). Each accepted name is a project written by the generator (yeoman-test, no install,
 * our node_modules linked: the same packages at the same versions), and all of them are tested
 * by one vitest run over their own test files: one start instead of one per project.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { TENANT_RULE, checkAnswer } from '../../generators/app/answers.js';
import { validateTenantSlug } from '../../api/contract/index.js';
import { ROOT, childEnv, runCli, runProcess } from '../helpers/rig.js';
import { ALL_FLAGS, runGenerator, snapshot } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'tenant-names-'));
const figures: string[] = [];
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  if (figures.length > 0) console.log(`tenant names figures: ${figures.join('; ')}`);
});

const seed = Date.now() % 2 ** 31;
/** Pieces a name is made of: what URLs, JSON, Markdown, shells and .env files treat specially. */
const special = fc.constantFrom(
  ' ',
  '%',
  '%2e',
  '%2F',
  '%25',
  '..',
  '.',
  '"',
  "'",
  '`',
  '\\',
  '?',
  '#',
  '&',
  '|',
  '+',
  ':',
  ';',
  '=',
  '$',
  '*',
  '<',
  '>',
  '{{',
);
const piece = fc.oneof(
  special,
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
);
const anyName = fc.oneof(
  { weight: 4, arbitrary: fc.array(piece, { minLength: 1, maxLength: 10 }).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 240, maxLength: 256 }) },
);
/** What the generator refuses: empty, a dot segment, a `/`, a control character, too long, a lone surrogate, U+2028/9. */
const refusedName = fc
  .oneof(
    fc.constantFrom('', '.', '..'),
    fc.tuple(anyName, anyName).map(([a, b]) => `${a}/${b}`.slice(0, 256)),
    fc.tuple(anyName, fc.integer({ min: 1, max: 0x1f }), anyName).map(([a, c, b]) => `${a}${String.fromCharCode(c)}${b}`.slice(0, 256)),
    fc.string({ unit: 'grapheme-ascii', minLength: 257, maxLength: 300 }),
    anyName.map((a) => `${a}\ud800`),
    fc.tuple(anyName, fc.constantFrom('\u2028', '\u2029'), anyName).map(([a, c, b]) => `${a}${c}${b}`.slice(0, 256)),
  )
  .filter((n) => !checkAnswer('tenant', n).ok);

const FIXED = [
  'rowery-łódź',
  'Acme Shop',
  '100%',
  '%2e%2e',
  'a%2Fb',
  '..a',
  '...',
  '"quoted"',
  "it's",
  'it\'s "all" `three`',
  '`tick`',
  ' edge ',
  '{{tenant}}',
  '🚲 serwis',
  'ab'.repeat(128),
];
const accepted = [
  ...FIXED,
  ...fc.sample(
    anyName.filter((n) => checkAnswer('tenant', n).ok),
    { seed, numRuns: 10 },
  ),
];
const refused = ['a\u2028b', ...fc.sample(refusedName, { seed, numRuns: 16 })];

describe('tenant names the generator accepts', { timeout: 300_000 }, () => {
  it('the generator takes exactly what the contract takes, but for line separators no generated file may hold', () => {
    const takes = (name: string): boolean => validateTenantSlug(name).ok && !/[\u2028\u2029]/.test(name);
    for (const name of [...accepted, ...refused]) expect(checkAnswer('tenant', name).ok, JSON.stringify(name)).toBe(takes(name));
    for (const name of accepted) expect(checkAnswer('tenant', name).ok, JSON.stringify(name)).toBe(true);
    for (const name of refused) expect(checkAnswer('tenant', name).ok, JSON.stringify(name)).toBe(false);
  });

  it('yield projects whose own tests pass (one vitest run over all of them)', async () => {
    const started = performance.now();
    for (const [i, tenant] of accepted.entries()) {
      const cwd = join(work, `t-${String(i).padStart(2, '0')}`);
      mkdirSync(cwd);
      await runGenerator({ ...ALL_FLAGS, name: 'shop', tenant, 'skip-install': true }).cd(cwd);
      symlinkSync(join(ROOT, 'node_modules'), join(cwd, 'shop', 'node_modules'), 'dir');
    }
    const generatedMs = performance.now() - started;
    // Their files only, the way the generated vitest.config.ts runs them: one worker thread that
    // keeps the shared packages loaded from file to file (a second worker loads them all again).
    writeFileSync(
      join(work, 'vitest.config.mjs'),
      "export default { test: { include: ['t-*/shop/test/**/*.test.ts'], pool: 'threads', isolate: false, maxWorkers: 1 } };\n",
    );
    const run = await runProcess(
      join(ROOT, 'node_modules', '.bin', 'vitest'),
      ['run', '--config', 'vitest.config.mjs', '--reporter', 'json', '--outputFile', 'results.json'],
      {
        cwd: work,
        env: childEnv({ CI: '1' }),
        timeoutMs: 280_000,
      },
    );
    const results = JSON.parse(readFileSync(join(work, 'results.json'), 'utf8')) as {
      testResults: { name: string; status: string; message: string }[];
    };
    const failed = results.testResults
      .filter((r) => r.status !== 'passed')
      .map((r) => `${JSON.stringify(accepted[Number(/t-(\d+)/.exec(r.name)?.[1])])}: ${r.name.slice(work.length)} ${r.message}`);
    expect(failed, `seed ${seed}`).toEqual([]);
    expect(run.code, run.stderr.slice(-2_000)).toBe(0);
    expect(results.testResults).toHaveLength(
      accepted.length * readdirSync(join(work, 't-00', 'shop', 'test')).filter((f) => f.endsWith('.test.ts')).length,
    );
    figures.push(
      `seed ${seed}`,
      `${accepted.length} projects generated in ${(generatedMs / 1000).toFixed(1)} s`,
      `tested in ${(run.ms / 1000).toFixed(1)} s`,
    );
  });
});

describe('tenant names the generator refuses', { timeout: 120_000 }, () => {
  it('through the generator (what `yo` runs): an error showing the rule, nothing written', async () => {
    for (const tenant of refused) {
      const cwd = mkdtempSync(join(work, 'refused-'));
      await expect(runGenerator({ ...ALL_FLAGS, tenant }).cd(cwd), JSON.stringify(tenant)).rejects.toThrow(TENANT_RULE);
      expect(snapshot(cwd).size, JSON.stringify(tenant)).toBe(0);
    }
  });

  it('through `repairmon new`: exit 2, the rule on stderr, nothing written', async () => {
    // A few as child processes (each is a Node start). argv carries UTF-8 and ends at NUL, so no
    // lone surrogate and no NUL; `--tenant=` keeps a name starting with "-" a value (1 run in 120 drew one of these).
    const names = refused.filter((n) => Buffer.from(n).toString() === n && !n.includes('\0')).slice(0, 2);
    await Promise.all(
      names.map(async (tenant) => {
        const cwd = mkdtempSync(join(work, 'refused-cli-'));
        const run = await runCli(['new', 'shop', '--yes', '--skip-install', `--tenant=${tenant}`], { cwd });
        expect(run.code, `${JSON.stringify(tenant)}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toContain(TENANT_RULE);
        expect(readdirSync(cwd), JSON.stringify(tenant)).toEqual([]);
      }),
    );
  });
});
