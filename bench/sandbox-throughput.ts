/**
 * The sandbox's throughput on `/tenants/rowery-nowak/clients` with a valid key, against a
 * plain Node hello-world http server measured in the same run, both driven by `wrk`
 * (2 threads, 32 connections). The key reaches wrk through the environment and a Lua script,
 * never argv. Rounds alternate which server goes first, after a warm-up of both.
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/sandbox-throughput.js [--seconds N] [--rounds R]
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSandbox } from '../sandbox/index.js';
import { API_KEY_HEADER, tenantResourcePath } from '../api/contract/index.js';
import { isEntryPoint, numberFlag } from './lib/cli.js';
import { describeSpread, ratio, spreadOf } from './lib/stats.js';

const run$ = promisify(execFile);
const WRK = '/usr/bin/wrk';
const THREADS = 2;
const CONNECTIONS = 32;
const KEY_ENV = 'REPAIR_BENCH_KEY';
const PATH = tenantResourcePath('rowery-nowak', 'clients');
const LUA = `-- The key comes from the environment so it never appears in wrk's argv.
local key = os.getenv("${KEY_ENV}")
if key ~= nil and key ~= "" then wrk.headers["${API_KEY_HEADER}"] = key end
`;

type WrkFigures = ReturnType<typeof parseWrk>;
export type ThroughputFigures = Awaited<ReturnType<typeof run>>;

function parseWrk(output: string) {
  const [, count = 'NaN', amount = 'NaN', unit = 's'] = /(\d+) requests in ([\d.]+)(ms|s|m)\b/.exec(output) ?? [];
  const requests = Number(count);
  const seconds = Number(amount) * (unit === 'ms' ? 0.001 : unit === 'm' ? 60 : 1);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  if (!Number.isFinite(requests) || !Number.isFinite(seconds) || seconds <= 0) throw new Error(`cannot read wrk output:\n${output}`);
  return { requests, seconds, requestsPerSecond: requests / seconds, non2xx, socketErrors };
}

async function wrk(url: string, seconds: number, script: string, key: string | undefined): Promise<WrkFigures> {
  const args = ['-t', String(THREADS), '-c', String(CONNECTIONS), '-d', `${seconds}s`, '--timeout', '5s', '-s', script, url];
  const env = { ...process.env, ...(key ? { [KEY_ENV]: key } : {}) };
  const { stdout } = await run$(WRK, args, { env, timeout: (seconds + 30) * 1000 });
  return parseWrk(stdout);
}

function sum(runs: readonly WrkFigures[]): WrkFigures {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    socketErrors: runs.reduce((n, r) => n + r.socketErrors, 0),
  };
}

async function startHelloWorld(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('Hello World');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

export async function run(options: { seconds?: number; rounds?: number } = {}) {
  const seconds = options.seconds ?? 5;
  const roundCount = options.rounds ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-bench-'));
  const script = join(dir, 'key-from-env.lua');
  await writeFile(script, LUA);
  // Rate limit off and no logger: we measure the request path, not the limiter or pino.
  const sandbox = await startSandbox({ rateLimit: 'off' });
  const hello = await startHelloWorld();
  const key = sandbox.key('nowak-test').key;
  const sandboxUrl = `${sandbox.baseUrl}${PATH}`;
  try {
    await wrk(sandboxUrl, 1, script, key);
    await wrk(hello.url, 1, script, undefined);
    const sandboxRuns: WrkFigures[] = [];
    const helloRuns: WrkFigures[] = [];
    for (let round = 0; round < roundCount; round += 1) {
      const sandboxFirst = round % 2 === 0;
      if (sandboxFirst) sandboxRuns.push(await wrk(sandboxUrl, seconds, script, key));
      helloRuns.push(await wrk(hello.url, seconds, script, undefined));
      if (!sandboxFirst) sandboxRuns.push(await wrk(sandboxUrl, seconds, script, key));
    }
    // sandbox req/s over hello-world req/s, per round (each pair back to back).
    const rounds = spreadOf(sandboxRuns.map((r, i) => ratio(r.requestsPerSecond, helloRuns[i]?.requestsPerSecond ?? 0)));
    const sandboxFigures = sum(sandboxRuns);
    const helloFigures = sum(helloRuns);
    if (sandboxFigures.non2xx > 0)
      throw new Error(`the sandbox answered ${sandboxFigures.non2xx} non-2xx responses: the figures would not measure the data path`);
    return {
      path: PATH,
      threads: THREADS,
      connections: CONNECTIONS,
      secondsPerRun: seconds,
      sandbox: sandboxFigures,
      helloWorld: helloFigures,
      rounds,
      /** The median of the rounds' ratios: one slow round on a shared machine does not move it. */
      ratio: rounds.median,
    };
  } finally {
    await sandbox.close();
    hello.server.closeAllConnections();
    hello.server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) {
  const seconds = numberFlag(process.argv, 'seconds', { min: 1, max: 3600 });
  const figures = await run({ seconds, rounds: numberFlag(process.argv, 'rounds', { min: 1, max: 100 }) });
  const line = (name: string, f: WrkFigures): string =>
    `${name.padEnd(12)} ${f.requestsPerSecond.toFixed(0).padStart(8)} req/s  (${f.requests} requests in ${f.seconds.toFixed(1)} s, non-2xx ${f.non2xx}, socket errors ${f.socketErrors})`;
  console.log(
    `wrk -t${figures.threads} -c${figures.connections}, ${figures.rounds.rounds} x ${figures.secondsPerRun} s each, GET ${figures.path}`,
  );
  console.log(line('sandbox', figures.sandbox));
  console.log(line('hello-world', figures.helloWorld));
  console.log(`ratio sandbox / hello-world: ${figures.ratio.toFixed(2)} (${describeSpread(figures.rounds, 2)})`);
}
