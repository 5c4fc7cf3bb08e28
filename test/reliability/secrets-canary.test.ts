/**
 * Secrets canary. Two values, random per run, go through one run of everything:
 * - VALID: the sandbox issues its key values itself at start (it cannot be given a chosen
 *   value), so the canary that must *work* is the value it issued to `nowak-test`;
 * - REJECTED: our own `rs_test_CANARY…` value, which every server refuses (error paths).
 * They travel through the monitor (`serve`, config `${ENV}`), the probe CLI (env, stdin, file),
 * the client in-process (errors, toJSON, inspect, logs), a generated project (`.env`, its
 * `npm run check` build), the sandbox's own pino log, and an origin that echoes the key back.
 * Afterwards neither value appears in any output, page, log, tracked file or child argv.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { format, inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { ApiKey, type Logger, createClient } from '../../api/client/index.js';
import { makeCanary } from './helpers.js';
import { ROOT, type Watched, childEnv, spawnCli, spawnProcess, waitFor, waitForOutput } from '../helpers/rig.js';
import { type EchoOrigin, type Ledger, createLedger, startEchoOrigin } from './leak-rig.js';

let sandbox: RunningSandbox;
let echo: EchoOrigin;
let work: string;
let VALID: string;
const REJECTED = makeCanary();
const ledger: Ledger = createLedger();
const children: Watched[] = [];
let sandboxLog = '';

const canaries = (): string[] => [VALID, REJECTED];

function record(label: string, child: Watched): void {
  ledger.add(`${label} stdout`, child.stdout());
  ledger.add(`${label} stderr`, child.stderr());
  for (const argv of child.cmdlines) ledger.add(`${label} argv`, argv);
}

function leaksFrom(prefix: string): string[] {
  return ledger.leaks(canaries()).filter((l) => l.startsWith(prefix));
}

beforeAll(async () => {
  const sink = new Writable({ write: (chunk: Buffer, _e, done) => void ((sandboxLog += chunk.toString('utf8')), done()) });
  // No `secrets` option: the sandbox itself must not write a key, there is no last net here.
  sandbox = await startSandbox({ logger: createLogger({ level: 'trace', destination: sink }) });
  VALID = sandbox.key('nowak-test').key;
  echo = await startEchoOrigin();
  work = mkdtempSync(join(tmpdir(), 'repairmon-canary-'));
});

afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  await Promise.all([sandbox?.close(), echo?.close()]);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('secrets canary', { timeout: 60_000 }, () => {
  it('in-process: ApiKey, client errors (toJSON, inspect, stack, cause), client logs, an echoing server', async () => {
    const key = new ApiKey(VALID, 'nowak-test');
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- the canary stringifies the key every way code might, a template literal included
    ledger.add('ApiKey', [String(key), `${key}`, JSON.stringify({ key }), inspect(key), format('%o %O %s', key, key, key)].join('\n'));
    const lines: string[] = [];
    const capture: Logger = {
      warn: (m, f) => lines.push(m + JSON.stringify(f)),
      error: (m, f) => lines.push(m + JSON.stringify(f)),
      info: (m, f) => lines.push(m + JSON.stringify(f)),
      debug: (m, f) => lines.push(m + JSON.stringify(f)),
    };
    const calls = [
      { baseUrl: echo.baseUrl, value: VALID, run: (c: ReturnType<typeof createClient>) => c.index() },
      { baseUrl: echo.baseUrl, value: REJECTED, run: (c: ReturnType<typeof createClient>) => c.list('bikes') },
      { baseUrl: sandbox.baseUrl, value: REJECTED, run: (c: ReturnType<typeof createClient>) => c.list('clients') },
    ];
    for (const [i, call] of calls.entries()) {
      const client = createClient({
        baseUrl: call.baseUrl,
        apiKey: new ApiKey(call.value, 'canary'),
        tenant: 'rowery-nowak',
        maxRetries: 0,
        logger: capture,
        logLevel: 'debug',
      });
      const error = await call.run(client).then(
        () => new Error('expected a refusal'),
        (e: unknown) => e as Error,
      );
      await client.close();
      expect(error.name, error.message).toBe('AuthenticationError');
      ledger.add(
        `client error ${i}`,
        [
          error.message,
          String(error),
          error.stack ?? '',
          JSON.stringify(error),
          inspect(error, { depth: Infinity, showHidden: true }),
          inspect(client, { depth: Infinity }),
        ].join('\n'),
      );
    }
    expect(echo.keyed()).toBeGreaterThanOrEqual(2);
    ledger.add('client logger', lines.join('\n'));
    expect(leaksFrom('ApiKey')).toEqual([]);
    expect(leaksFrom('client')).toEqual([]);
  });

  it('monitor `serve`: config with ${ENV}, stdout/stderr (debug pino), /metrics, /probes(+json), status page, debug probes, reload', async () => {
    const config = join(work, 'monitor.yaml');
    writeFileSync(
      config,
      [
        'targets:',
        `  - { name: sandbox, baseUrl: "${sandbox.baseUrl}", schedule: "*/5 * * * * *", timeout: 2s, keys: [`,
        '      { alias: nowak, kind: tenant, tenant: rowery-nowak, secret: "${CANARY_VALID}" },',
        '      { alias: rejected, kind: tenant, tenant: rowery-nowak, auth: x-api-key, secret: "${CANARY_REJECTED}" } ] }',
        `  - { name: echo, baseUrl: "${echo.baseUrl}", schedule: "*/5 * * * * *", timeout: 2s, keys: [`,
        // One alias per debug view below: on-demand probes are paced per key (http.onDemandInterval).
        '      { alias: nowak, kind: tenant, tenant: rowery-nowak, secret: "${CANARY_VALID}" },',
        '      { alias: nowak-clients, kind: tenant, tenant: rowery-nowak, secret: "${CANARY_VALID}" },',
        '      { alias: nowak-bikes, kind: tenant, tenant: rowery-nowak, secret: "${CANARY_VALID}" } ] }',
        '',
      ].join('\n'),
    );
    const serve = spawnCli(['serve', '--config', config, '--listen', '127.0.0.1:0', '--log-level', 'debug'], {
      env: childEnv({ CANARY_VALID: VALID, CANARY_REJECTED: REJECTED }),
    });
    children.push(serve);
    const url = (await waitForOutput(serve.stdout, /status (http:\/\/127\.0\.0\.1:\d+)\//))[1];
    const get = async (path: string, init?: RequestInit): Promise<string> => {
      const res = await fetch(`${url}${path}`, init);
      const text = await res.text();
      ledger.add(`monitor ${init?.method ?? 'GET'} ${path}`, text + JSON.stringify([...res.headers]));
      return text;
    };
    await waitForOutput(() => sandboxLog, /nowak/);
    // Both targets' probes run at once: wait for each one the checks below read, not the first.
    const awaited = ['echo/nowak', 'sandbox/nowak/rowery-nowak/clients/read', 'sandbox/rejected/rowery-nowak/clients/read'];
    const seen = async () => {
      const json = await get('/probes.json');
      return awaited.every((id) => json.includes(id));
    };
    await waitFor(seen, {
      what: 'the echo probe and both sandbox reads in /probes.json',
      timeoutMs: 10_000,
      everyMs: 100,
    });
    // Controls: the canaries really were in use (the VALID key read data, REJECTED was refused),
    // and the argv sampler reads the right process (its environment does hold the values).
    const recent = (JSON.parse(await get('/probes.json')) as { recent: { id: string; outcome: string }[] }).recent;
    expect(recent.find((e) => e.id === 'sandbox/nowak/rowery-nowak/clients/read')?.outcome).toBe('ok');
    expect(recent.find((e) => e.id === 'sandbox/rejected/rowery-nowak/clients/read')?.outcome).toBe('unauthorized');
    const environ = readFileSync(`/proc/${serve.child.pid}/environ`, 'utf8');
    expect(canaries().every((c) => environ.includes(c))).toBe(true);
    const debugViews = [
      '/probe?target=sandbox&key=nowak&endpoint=clients&tenant=rowery-nowak&debug=true',
      '/probe?target=sandbox&key=rejected&endpoint=bikes&tenant=rowery-nowak&debug=true',
      '/probe?target=echo&key=nowak-clients&endpoint=clients&tenant=rowery-nowak&debug=true',
      '/probe?target=echo&key=nowak&endpoint=index&debug=true',
      '/probe?target=echo&key=nowak-bikes&endpoint=bikes&tenant=rowery-nowak',
    ];
    for (const path of debugViews) expect(await get(path)).toMatch(/outcome|repairmon_/);
    for (const path of ['/metrics', '/probes', '/probes.json', '/']) await get(path);
    expect(await get('/-/reload', { method: 'POST' })).toContain('"ok":true');
    await get('/metrics');
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    record('monitor serve', serve);
    expect(serve.stderr()).toContain('"level":20');
    expect(leaksFrom('monitor')).toEqual([]);
  });

  it('probe CLI: key from env, stdin and a file; table and JSON; against the sandbox and the echoing origin', async () => {
    const keyFile = join(work, 'key.txt');
    writeFileSync(keyFile, `${REJECTED}\n`, { mode: 0o600 });
    const env = childEnv({ CANARY_VALID: VALID });
    const runs: [string, string[], string | undefined][] = [
      ['probe env table', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'CANARY_VALID'], undefined],
      ['probe env json', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'CANARY_VALID', '--json'], undefined],
      ['probe stdin', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak', '--key-stdin'], REJECTED],
      ['probe file json', ['--base-url', sandbox.baseUrl, '--key-file', keyFile, '--json'], undefined],
      [
        'probe echo',
        ['--base-url', echo.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'CANARY_VALID', '--json', '--timeout', '2'],
        undefined,
      ],
    ];
    const codes = await Promise.all(
      runs.map(async ([label, args, stdin]) => {
        const run = spawnCli(['probe', ...args], { env, ...(stdin === undefined ? {} : { stdin }) });
        children.push(run);
        const code = await run.exited;
        record(label, run);
        return code;
      }),
    );
    expect(codes).toEqual([0, 0, 1, 1, 1]);
    expect(leaksFrom('probe')).toEqual([]);
  });

  it('generated project: key in .env, built and run against the sandbox; tracked files, outputs and argv stay clean', async () => {
    const made = spawnCli(
      ['new', 'canary-app', '--yes', '--skip-install', '--no-interactive', '--tenant', 'rowery-nowak', '--test-base-url', sandbox.baseUrl],
      { env: childEnv(), cwd: work },
    );
    children.push(made);
    expect(await made.exited, made.stderr()).toBe(0);
    record('generator new', made);
    const project = join(work, 'canary-app');
    writeFileSync(join(project, '.env'), `REPAIR_API_TEST_KEY=${VALID}\n`);
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
    const steps: [string, string, string[], NodeJS.ProcessEnv, number][] = [
      ['generated tsc', join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], childEnv(), 0],
      ['generated check (.env key)', process.execPath, ['dist/check.js'], childEnv(), 0],
      ['generated check (rejected key)', process.execPath, ['dist/check.js'], childEnv({ REPAIR_API_TEST_KEY: REJECTED }), 1],
    ];
    for (const [label, file, args, env, want] of steps) {
      const step = spawnProcess(file, args, { env, cwd: project });
      children.push(step);
      expect(await step.exited, `${label}: ${step.stdout()}${step.stderr()}`).toBe(want);
      record(label, step);
    }
    rmSync(join(project, 'node_modules'));
    const git = (args: string[]) =>
      spawnProcess('git', args, {
        env: childEnv({ GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }),
        cwd: project,
      });
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
    ])
      expect(await git(args).exited).toBe(0);
    const listing = git(['ls-files', '-z']);
    expect(await listing.exited).toBe(0);
    const tracked = listing.stdout().split('\0').filter(Boolean);
    expect(tracked).toContain('src/config.ts');
    expect(tracked).toContain('.env.example');
    expect(tracked).not.toContain('.env');
    expect(tracked.some((f) => f.startsWith('dist/'))).toBe(false);
    for (const file of tracked) ledger.add(`generated tracked ${file}`, readFileSync(join(project, file), 'utf8'));
    expect(leaksFrom('generated')).toEqual([]);
  });

  it('the sandbox log saw every request yet holds no key value; nothing anywhere leaked', () => {
    ledger.add('sandbox pino log', sandboxLog);
    expect(sandboxLog.split('\n').length).toBeGreaterThan(20);
    expect(ledger.leaks(canaries())).toEqual([]);
    // What the run looked at, so a silently skipped part shows up as a smaller ledger.
    expect(ledger.size).toBeGreaterThan(60);
    console.log(`secrets canary: ${ledger.size} texts checked (outputs, pages, logs, tracked files, argv samples), 0 leaks`);
  });
});
