/**
 * CPU and wall time per successful call through the client vs raw `undici.request`, same
 * sandbox endpoint, same Agent settings, same run. The sandbox runs in a child process so
 * `process.cpuUsage()` here counts only the calling side. Runs are interleaved in rounds,
 * alternating which side goes first, after a warm-up of both.
 *
 *   npm run build && node dist/bench/client-overhead.js [--calls N] [--rounds R]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EnvHttpProxyAgent, MockAgent, request } from 'undici';
import { startSandbox } from '../sandbox/index.js';
import { ApiKey, createClient } from '../api/client/index.js';
import { authHeader, joinUrl, tenantResourcePath } from '../api/contract/index.js';
import { randomUUID } from 'node:crypto';

const TENANT = 'rowery-nowak';
/** What the client sends besides the key: a User-Agent of its length and a fresh traceparent per request. */
const sentHeaders = (auth: { name: string; value: string }): Record<string, string> => ({
  accept: 'application/json',
  [auth.name]: auth.value,
  'user-agent': `repair-service-client/0.0.0 node/${process.versions.node}`,
  traceparent: `00-${randomUUID().replaceAll('-', '')}-${randomUUID().replaceAll('-', '').slice(0, 16)}-01`,
});
const PATH = tenantResourcePath(TENANT, 'clients');
/** The client's own Agent connects within its attempt budget (15 s by default); the raw side gets the same. */
const CONNECT_TIMEOUT_MS = 15_000;
const IN_MEMORY_CALLS_FACTOR = 5;

export interface ClientSideFigures {
  readonly ok: number;
  /** user + system, as process.cpuUsage() reports it. */
  readonly cpuUsPerCall: number;
  readonly userUsPerCall: number;
  readonly systemUsPerCall: number;
  readonly wallUsPerCall: number;
}

export interface ModeFigures {
  readonly concurrency: number;
  readonly calls: number;
  readonly client: ClientSideFigures;
  readonly raw: ClientSideFigures;
  /** client / raw; target <= 1.20. */
  readonly cpuRatio: number;
  /** Median over rounds of the per-round CPU ratio: robust to load bursts from other processes. */
  readonly medianCpuRatio: number;
  /** User time only: the client's own JavaScript; system time is the same syscalls on both sides. */
  readonly userRatio: number;
  readonly wallRatio: number;
}

export interface OverheadFigures {
  readonly sequential: ModeFigures;
  readonly concurrent: ModeFigures;
  /**
   * Both sides through one MockAgent replaying the sandbox's real response: no sockets, so the
   * difference is the client's own JavaScript without kernel and scheduler noise.
   */
  readonly inMemory: ModeFigures;
}

export interface OverheadOptions {
  readonly calls?: number;
  readonly rounds?: number;
  readonly warmup?: number;
  readonly concurrency?: number;
}

interface Target {
  readonly baseUrl: string;
  readonly key: string;
}

type Call = () => Promise<boolean>;

/** Starts the sandbox in a child process (this same file with --serve). */
async function startRemoteSandbox(): Promise<{ target: Target; child: ChildProcess }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [message] = (await once(child, 'message')) as [Target];
  return { target: message, child };
}

async function serve(): Promise<void> {
  const sandbox = await startSandbox({ rateLimit: 'off' });
  process.send?.({ baseUrl: sandbox.baseUrl, key: sandbox.key('nowak-test').key } satisfies Target);
  process.on('disconnect', () => void sandbox.close().then(() => process.exit(0)));
}

async function runBatch(call: Call, calls: number, concurrency: number): Promise<number> {
  let next = 0;
  let ok = 0;
  const worker = async (): Promise<void> => {
    while (next < calls) {
      next += 1;
      if (await call()) ok += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ok;
}

interface Totals {
  ok: number;
  userUs: number;
  systemUs: number;
  wallUs: number;
}

async function measure(call: Call, calls: number, concurrency: number, totals: Totals): Promise<void> {
  const cpu = process.cpuUsage();
  const wall = process.hrtime.bigint();
  totals.ok += await runBatch(call, calls, concurrency);
  const used = process.cpuUsage(cpu);
  totals.wallUs += Number(process.hrtime.bigint() - wall) / 1000;
  totals.userUs += used.user;
  totals.systemUs += used.system;
}

function perCall(t: Totals): ClientSideFigures {
  const n = Math.max(1, t.ok);
  return {
    ok: t.ok,
    cpuUsPerCall: (t.userUs + t.systemUs) / n,
    userUsPerCall: t.userUs / n,
    systemUsPerCall: t.systemUs / n,
    wallUsPerCall: t.wallUs / n,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const cpuPerOk = (t: Totals): number => (t.userUs + t.systemUs) / Math.max(1, t.ok);

async function mode(clientCall: Call, rawCall: Call, opts: Required<OverheadOptions>, concurrency: number): Promise<ModeFigures> {
  await runBatch(clientCall, opts.warmup, concurrency);
  await runBatch(rawCall, opts.warmup, concurrency);
  const client: Totals = { ok: 0, userUs: 0, systemUs: 0, wallUs: 0 };
  const raw: Totals = { ok: 0, userUs: 0, systemUs: 0, wallUs: 0 };
  const roundRatios: number[] = [];
  const perRound = Math.ceil(opts.calls / opts.rounds);
  for (let round = 0; round < opts.rounds; round += 1) {
    const c: Totals = { ok: 0, userUs: 0, systemUs: 0, wallUs: 0 };
    const r: Totals = { ok: 0, userUs: 0, systemUs: 0, wallUs: 0 };
    const order: Array<[Call, Totals]> =
      round % 2 === 0
        ? [
            [clientCall, c],
            [rawCall, r],
          ]
        : [
            [rawCall, r],
            [clientCall, c],
          ];
    for (const [call, totals] of order) await measure(call, perRound, concurrency, totals);
    roundRatios.push(cpuPerOk(c) / cpuPerOk(r));
    for (const [from, into] of [
      [c, client],
      [r, raw],
    ] as const) {
      into.ok += from.ok;
      into.userUs += from.userUs;
      into.systemUs += from.systemUs;
      into.wallUs += from.wallUs;
    }
  }
  const cs = perCall(client);
  const rs = perCall(raw);
  return {
    concurrency,
    calls: perRound * opts.rounds,
    client: cs,
    raw: rs,
    cpuRatio: cs.cpuUsPerCall / rs.cpuUsPerCall,
    medianCpuRatio: median(roundRatios),
    userRatio: cs.userUsPerCall / rs.userUsPerCall,
    wallRatio: cs.wallUsPerCall / rs.wallUsPerCall,
  };
}

export async function run(options: OverheadOptions = {}): Promise<OverheadFigures> {
  const opts: Required<OverheadOptions> = { calls: 4000, rounds: 100, warmup: 500, concurrency: 16, ...options };
  const { target, child } = await startRemoteSandbox();
  const agentOptions = { connect: { timeout: CONNECT_TIMEOUT_MS } };
  // The baseline is the same request by hand: the same dispatcher type the client uses (one that
  // honours the proxy variables) and the same headers (the client's User-Agent and a traceparent
  // per call), so the ratio is the client's own work, not what it sends.
  const rawAgent = new EnvHttpProxyAgent({ ...agentOptions, noProxy: '' });
  const client = createClient({
    baseUrl: target.baseUrl,
    apiKey: new ApiKey(target.key, 'nowak-test'),
    tenant: TENANT,
    logLevel: 'silent',
  });
  const url = joinUrl(target.baseUrl, PATH);
  const auth = authHeader('bearer', target.key);
  const rawCall: Call = async () => {
    const res = await request(url, { dispatcher: rawAgent, headers: sentHeaders(auth) });
    const body = (await res.body.json()) as { ok?: unknown };
    return res.statusCode === 200 && body.ok === true;
  };
  const clientCall: Call = async () => Array.isArray(await client.listClients());
  try {
    const sequential = await mode(clientCall, rawCall, opts, 1);
    const concurrent = await mode(clientCall, rawCall, opts, opts.concurrency);
    const inMemory = await inMemoryMode(target, url, auth, opts);
    return { sequential, concurrent, inMemory };
  } finally {
    await client.close();
    await rawAgent.close();
    child.disconnect();
  }
}

async function inMemoryMode(
  target: Target,
  url: string,
  auth: { name: string; value: string },
  opts: Required<OverheadOptions>,
): Promise<ModeFigures> {
  const recorded = await request(url, { headers: sentHeaders(auth) });
  const body = await recorded.body.text();
  const mock = new MockAgent();
  mock.disableNetConnect();
  const origin = new URL(target.baseUrl).origin;
  mock
    .get(origin)
    .intercept({ path: new URL(url).pathname })
    .reply(200, body, { headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) } })
    .persist();
  const client = createClient({
    baseUrl: target.baseUrl,
    apiKey: new ApiKey(target.key, 'nowak-test'),
    tenant: TENANT,
    dispatcher: mock,
    logLevel: 'silent',
  });
  const rawCall: Call = async () => {
    const res = await request(url, { dispatcher: mock, headers: sentHeaders(auth) });
    const parsed = (await res.body.json()) as { ok?: unknown };
    return res.statusCode === 200 && parsed.ok === true;
  };
  try {
    // A call here takes ~25 µs, so rounds of the socket modes' size last about a millisecond and
    // one scavenge decides a round; five times the calls keeps the GC share alike on both sides.
    return await mode(
      async () => Array.isArray(await client.listClients()),
      rawCall,
      { ...opts, calls: opts.calls * IN_MEMORY_CALLS_FACTOR },
      1,
    );
  } finally {
    await mock.close();
  }
}

function describe(name: string, m: ModeFigures): string {
  const side = (s: ClientSideFigures) =>
    `cpu ${s.cpuUsPerCall.toFixed(1)} µs/call (user ${s.userUsPerCall.toFixed(1)}, system ${s.systemUsPerCall.toFixed(1)}), wall ${s.wallUsPerCall.toFixed(1)} µs/call, ok ${s.ok}`;
  return [
    `${name} (concurrency ${m.concurrency}, ${m.calls} calls per side)`,
    `  client: ${side(m.client)}`,
    `  raw:    ${side(m.raw)}`,
    `  ratio client/raw: cpu ${m.cpuRatio.toFixed(3)} (target <= 1.20; median of rounds ${m.medianCpuRatio.toFixed(3)}), user ${m.userRatio.toFixed(3)}, wall ${m.wallRatio.toFixed(3)}`,
  ].join('\n');
}

function flag(name: string): number | undefined {
  const index = process.argv.indexOf(name);
  const value = index >= 0 ? Number(process.argv[index + 1]) : undefined;
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : undefined;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly && process.argv.includes('--serve')) {
  await serve();
} else if (invokedDirectly) {
  const figures = await run({
    ...(flag('--calls') ? { calls: flag('--calls') } : {}),
    ...(flag('--rounds') ? { rounds: flag('--rounds') } : {}),
  });
  console.log(describe('sequential', figures.sequential));
  console.log(describe('concurrent', figures.concurrent));
  console.log(describe('in-memory (MockAgent, no sockets)', figures.inMemory));
}
