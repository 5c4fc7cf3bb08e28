/**
 * Every code example in the READMEs a generated project ships (its own README.md and the
 * vendored client's) runs as written. Each fenced ts/js/sh block carries a marker on the line
 * before it: `<!-- runnable -->`, or `<!-- not runnable: why -->`, so nothing is skipped
 * silently. A freshly generated project (`repairmon new --yes`, its dependencies linked from
 * ours: the same versions) gets each runnable TypeScript block as a file beside the README it
 * came from, builds with its own tsconfig, and runs it against the sandbox with a demo key in
 * the variables `.env` would set.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { ROOT, childEnv, runCli, runProcess } from '../helpers/rig.js';

/** Where each shipped README sits in the project, and where its examples import from. */
const READMES = [
  { readme: 'README.md', dir: 'src' },
  { readme: 'src/repair-service/client/README.md', dir: 'src/repair-service' },
] as const;

interface Block {
  readonly readme: string;
  readonly lang: string;
  readonly marker: string | undefined;
  readonly code: string;
}

function blocks(text: string, readme: string): Block[] {
  const found: Block[] = [];
  for (const m of text.matchAll(/^( *)```(ts|js|sh)\n([\s\S]*?)^\1```$/gm)) {
    const before = text.slice(0, m.index).trimEnd().split('\n').at(-1)?.trim() ?? '';
    const marker = /^<!-- (runnable|not runnable: .+) -->$/.exec(before)?.[1];
    found.push({ readme, lang: m[2] ?? '', marker, code: (m[3] ?? '').replace(new RegExp(`^${m[1] ?? ''}`, 'gm'), '') });
  }
  return found;
}

let work: string;
let project: string;
let sandbox: RunningSandbox;
const all: Block[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'readme-examples-'));
  project = join(work, 'examples');
  const made = await runCli(['new', 'examples', '--yes', '--skip-install', '--no-interactive', '--tenant', 'rowery-nowak'], { cwd: work });
  expect(made.code, made.stderr).toBe(0);
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  for (const { readme } of READMES) all.push(...blocks(readFileSync(join(project, readme), 'utf8'), readme));
  sandbox = await startSandbox();
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the shipped READMEs of a generated project', { timeout: 180_000 }, () => {
  it('mark every ts/js/sh block runnable or say why not', () => {
    expect(all.length).toBeGreaterThan(5);
    expect(all.filter((b) => b.marker === undefined).map((b) => `${b.readme}: ${b.code.split('\n')[0] ?? ''}`)).toEqual([]);
    for (const { readme } of READMES)
      expect(
        all.some((b) => b.readme === readme && b.marker === 'runnable'),
        readme,
      ).toBe(true);
  });

  it('run every runnable example as written against the sandbox, with the configuration .env would give', async () => {
    const runnable = all.filter((b) => b.marker === 'runnable');
    expect(runnable.every((b) => b.lang === 'ts')).toBe(true);
    const files = runnable.map((b, i) => {
      const dir = READMES.find((r) => r.readme === b.readme)?.dir ?? 'src';
      writeFileSync(join(project, dir, `readme-example-${i}.ts`), b.code);
      return join('dist', dir.replace(/^src\/?/, ''), `readme-example-${i}.js`);
    });
    const build = await runProcess(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: project });
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const env = childEnv({
      REPAIR_API_TEST_BASE_URL: sandbox.baseUrl,
      REPAIR_API_TEST_KEY: sandbox.key('nowak-test').key,
      REPAIR_API_TENANT: 'rowery-nowak',
    });
    for (const file of files) {
      const run = await runProcess(process.execPath, [file], { cwd: project, env });
      expect(run.code, `${file}: ${run.stdout}${run.stderr}`).toBe(0);
      expect(run.stderr, file).toBe('');
      expect(run.stdout, file).toMatch(/\d/);
    }
  });
});
