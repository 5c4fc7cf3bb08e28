/**
 * The soak, opt-in: skipped unless REPAIRMON_SOAK=1 (minutes long, not for the default
 * `npm test`). 200 keys on a 1 s schedule with random faults (bench/soak.ts); asserts resource
 * bounds from the warm point to the end, never speed: RSS grows less than 64 MiB, open sockets
 * by at most 16 and never above the pool cap plus slack; and the monitor was still completing
 * probes at the end. Needs `npm run build` (the sandbox child is dist/bench/soak.js).
 *
 *   REPAIRMON_SOAK=1 REPAIRMON_SOAK_SECONDS=90 npx vitest run test/reliability/soak.test.ts
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOAK_BOUNDS, SOAK_DEFAULTS, formatSoak, runSoak } from '../../bench/soak.js';
import { ROOT } from './helpers.js';

const enabled = process.env['REPAIRMON_SOAK'] === '1';
const seconds = Number(process.env['REPAIRMON_SOAK_SECONDS'] ?? SOAK_DEFAULTS.seconds);
const keys = Number(process.env['REPAIRMON_SOAK_KEYS'] ?? SOAK_DEFAULTS.keys);
/** Sockets the process may hold besides the pool: the vitest worker's IPC and friends. */
const SOCKET_SLACK = 16;

describe.skipIf(!enabled)('soak (REPAIRMON_SOAK=1)', () => {
  it(`${keys} keys, 1 s schedule, random faults, ${seconds} s: resources stay bounded`, { timeout: (seconds + 60) * 1000 }, async () => {
    if (!existsSync(join(ROOT, 'dist', 'bench', 'soak.js'))) throw new Error('dist/ is missing: run "npm run build" first');
    expect(seconds).toBeGreaterThanOrEqual(SOAK_DEFAULTS.warmSeconds + 20);
    const figures = await runSoak({ seconds, keys, log: (line) => console.log(line) });
    console.log(formatSoak(figures));
    expect(figures.end.rssMiB - figures.warm.rssMiB).toBeLessThan(SOAK_BOUNDS.rssGrowthMiB);
    expect(figures.end.sockets - figures.warm.sockets).toBeLessThanOrEqual(SOAK_BOUNDS.socketGrowth);
    expect(figures.maxSockets).toBeLessThanOrEqual(figures.concurrency + SOCKET_SLACK);
    expect(figures.probesDoneLast10s).toBeGreaterThan(0);
    expect(figures.probesDone).toBeGreaterThan(0);
    expect(figures.probesDone).toBeLessThanOrEqual(figures.probesScheduled);
  });
});
