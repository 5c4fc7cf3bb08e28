/**
 * The soak, opt-in: skipped unless REPAIRMON_SOAK=1 (minutes long, not for the default
 * `npm test`). 200 keys on a 1 s schedule with random faults (bench/soak.ts); asserts resource
 * bounds from the warm point (each probe's history full) to the end, never speed: RSS grows
 * less than 64 MiB, the post-GC heap less than 16 MiB, open sockets by at most 16 and never
 * above the pool cap plus slack; and the monitor was still completing probes at the end.
 * Needs `npm run build` (the sandbox child is dist/bench/lib/sandbox-process.js).
 *
 *   REPAIRMON_SOAK=1 npx vitest run test/reliability/soak.test.ts              (180 s)
 *   REPAIRMON_SOAK=1 REPAIRMON_SOAK_SECONDS=90 REPAIRMON_SOAK_HISTORY=20 npx vitest run test/reliability/soak.test.ts
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOAK_DEFAULTS, formatSoak, runSoak, soakVerdicts } from '../../bench/soak.js';
import { ROOT } from '../helpers/rig.js';

const enabled = process.env['REPAIRMON_SOAK'] === '1';
const seconds = Number(process.env['REPAIRMON_SOAK_SECONDS'] ?? SOAK_DEFAULTS.seconds);
const keys = Number(process.env['REPAIRMON_SOAK_KEYS'] ?? SOAK_DEFAULTS.keys);
/** A short run needs a shorter history, or the warm point (history full) comes too late. */
const historyPerProbe = Number(process.env['REPAIRMON_SOAK_HISTORY'] ?? SOAK_DEFAULTS.historyPerProbe);
/** Sockets the process may hold besides the pool: the vitest worker's IPC and friends. */
const SOCKET_SLACK = 16;

describe.skipIf(!enabled)('soak (REPAIRMON_SOAK=1)', () => {
  it(`${keys} keys, 1 s schedule, random faults, ${seconds} s: resources stay bounded`, { timeout: (seconds + 60) * 1000 }, async () => {
    if (!existsSync(join(ROOT, 'dist', 'bench', 'soak.js'))) throw new Error('dist/ is missing: run "npm run build" first');
    const figures = await runSoak({ seconds, keys, historyPerProbe, log: (line) => console.log(line) });
    console.log(formatSoak(figures));
    expect(
      soakVerdicts(figures)
        .filter((v) => !v.ok)
        .map((v) => v.name),
    ).toEqual([]);
    expect(figures.maxSockets).toBeLessThanOrEqual(figures.concurrency + SOCKET_SLACK);
    expect(figures.probesDoneLast10s).toBeGreaterThan(0);
    expect(figures.probesDone).toBeGreaterThan(0);
    expect(figures.probesDone).toBeLessThanOrEqual(figures.probesScheduled);
  });
});
