/**
 * CPU and wall time per successful call through the client vs the same request by hand with
 * raw `undici.request`, in interleaved rounds alternating which side goes first, after a warm-up.
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/client-overhead.js [--calls N] [--rounds R]
 */
import { randomUUID } from 'node:crypto';
import { type Dispatcher, EnvHttpProxyAgent, MockAgent, request } from 'undici';
import { ApiKey, createClient } from '../api/client/index.js';
import { authHeader, joinUrl, tenantResourcePath } from '../api/contract/index.js';
import { isEntryPoint, numberFlag } from './lib/cli.js';
import { startSandboxProcess } from './lib/sandbox-process.js';

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

type ClientSideFigures = ReturnType<typeof perCall>;
type ModeFigures = Awaited<ReturnType<typeof mode>>;
export type OverheadFigures = Awaited<ReturnType<typeof run>>;

type Options = { calls: number; rounds: number; warmup: number; concurrency: number };

type Call = () => Promise<boolean>;

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

type Totals = Record<'ok' | 'userUs' | 'systemUs' | 'wallUs', number>;

const zero = (): Totals => ({ ok: 0, userUs: 0, systemUs: 0, wallUs: 0 });

/** One batch, its CPU and wall time added to each of `into` (the round's and the mode's). */
async function measure(call: Call, calls: number, concurrency: number, ...into: Totals[]): Promise<void> {
  const cpu = process.cpuUsage();
  const wall = process.hrtime.bigint();
  const ok = await runBatch(call, calls, concurrency);
  const used = process.cpuUsage(cpu);
  const wallUs = Number(process.hrtime.bigint() - wall) / 1000;
  for (const t of into)
    Object.assign(t, { ok: t.ok + ok, userUs: t.userUs + used.user, systemUs: t.systemUs + used.system, wallUs: t.wallUs + wallUs });
}

function perCall(t: Totals) {
  const n = Math.max(1, t.ok);
  /** cpu is user + system, as process.cpuUsage() reports it. */
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

async function mode(clientCall: Call, rawCall: Call, opts: Options, concurrency: number) {
  await runBatch(clientCall, opts.warmup, concurrency);
  await runBatch(rawCall, opts.warmup, concurrency);
  const client = zero();
  const raw = zero();
  const roundRatios: number[] = [];
  const perRound = Math.ceil(opts.calls / opts.rounds);
  for (let round = 0; round < opts.rounds; round += 1) {
    const [c, r] = [zero(), zero()];
    const sides = [() => measure(clientCall, perRound, concurrency, c, client), () => measure(rawCall, perRound, concurrency, r, raw)];
    for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
    roundRatios.push(perCall(c).cpuUsPerCall / perCall(r).cpuUsPerCall);
  }
  const cs = perCall(client);
  const rs = perCall(raw);
  return {
    concurrency,
    calls: perRound * opts.rounds,
    client: cs,
    raw: rs,
    /** client / raw; target <= 1.20. */
    cpuRatio: cs.cpuUsPerCall / rs.cpuUsPerCall,
    /** Median over rounds of the per-round CPU ratio: robust to load bursts from other processes. */
    medianCpuRatio: median(roundRatios),
    /** User time only: the client's own JavaScript; system time is the same syscalls on both sides. */
    userRatio: cs.userUsPerCall / rs.userUsPerCall,
    wallRatio: cs.wallUsPerCall / rs.wallUsPerCall,
  };
}

/** Our client and the same request by hand through one dispatcher (undefined: the client's own Agent). */
function sides(baseUrl: string, key: string, rawDispatcher: Dispatcher, clientDispatcher?: Dispatcher) {
  const client = createClient({
    baseUrl,
    apiKey: new ApiKey(key, 'nowak-test'),
    tenant: TENANT,
    logLevel: 'silent',
    ...(clientDispatcher ? { dispatcher: clientDispatcher } : {}),
  });
  const url = joinUrl(baseUrl, PATH);
  const auth = authHeader('bearer', key);
  const rawCall: Call = async () => {
    const res = await request(url, { dispatcher: rawDispatcher, headers: sentHeaders(auth) });
    const body = (await res.body.json()) as { ok?: unknown };
    return res.statusCode === 200 && body.ok === true;
  };
  const clientCall: Call = async () => Array.isArray(await client.list('clients'));
  return { client, url, auth, rawCall, clientCall };
}

export async function run(options: Partial<Options> = {}) {
  const opts: Options = { calls: 4000, rounds: 100, warmup: 500, concurrency: 16, ...options };
  // In its own process, so `process.cpuUsage()` here counts only the calling side.
  const sandbox = await startSandboxProcess();
  // The baseline is the same request by hand: the same dispatcher type the client uses (one that
  // honours the proxy variables) and the same headers (the client's User-Agent and a traceparent
  // per call), so the ratio is the client's own work, not what it sends.
  const rawAgent = new EnvHttpProxyAgent({ connect: { timeout: CONNECT_TIMEOUT_MS }, noProxy: '' });
  const real = sides(sandbox.baseUrl, sandbox.key('nowak-test'), rawAgent);
  try {
    const sequential = await mode(real.clientCall, real.rawCall, opts, 1);
    const concurrent = await mode(real.clientCall, real.rawCall, opts, opts.concurrency);
    /** Both sides through one MockAgent replaying the sandbox's real response: no sockets, so the difference is the client's own JavaScript. */
    const inMemory = await inMemoryMode(sandbox.baseUrl, sandbox.key('nowak-test'), real, opts);
    return { sequential, concurrent, inMemory };
  } finally {
    await real.client.close();
    await rawAgent.close();
    await sandbox.close();
  }
}

async function inMemoryMode(baseUrl: string, key: string, real: ReturnType<typeof sides>, opts: Options) {
  const body = await (await request(real.url, { headers: sentHeaders(real.auth) })).body.text();
  const mock = new MockAgent();
  mock.disableNetConnect();
  mock
    .get(new URL(baseUrl).origin)
    .intercept({ path: new URL(real.url).pathname })
    .reply(200, body, { headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) } })
    .persist();
  const memory = sides(baseUrl, key, mock, mock);
  try {
    // A call here takes ~25 µs, so rounds of the socket modes' size last about a millisecond and
    // one scavenge decides a round; five times the calls keeps the GC share alike on both sides.
    return await mode(memory.clientCall, memory.rawCall, { ...opts, calls: opts.calls * 5 }, 1);
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

if (isEntryPoint(import.meta.url)) {
  const calls = numberFlag(process.argv, 'calls', { min: 1, max: 10_000_000 });
  const rounds = numberFlag(process.argv, 'rounds', { min: 1, max: 100_000 });
  const figures = await run({ ...(calls ? { calls } : {}), ...(rounds ? { rounds } : {}) });
  console.log(describe('sequential', figures.sequential));
  console.log(describe('concurrent', figures.concurrent));
  console.log(describe('in-memory (MockAgent, no sockets)', figures.inMemory));
}
