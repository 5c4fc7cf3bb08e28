/**
 * Scale, as `npm run bench` reports it: the 100 / 1 000 / 5 000-key matrix
 * (monitor-scale-matrix.ts) and the render baseline of 1 000 keys against the 6 demo keys
 * (monitor-scale.ts), which covers one size only and so cannot stand in for the matrix.
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/scale.js [--keys 100,1000,5000] [--interval 60]
 */
import { isEntryPoint, listFlag, numberFlag } from './lib/cli.js';
import { type ScaleOptions, describeScale, run as runMatrix } from './monitor-scale-matrix.js';
import { type MonitorScaleFigures, run as runRenderBaseline } from './monitor-scale.js';
import { fixed } from './lib/stats.js';

export type ScaleRunFigures = Awaited<ReturnType<typeof run>>;

export async function run(options: ScaleOptions & { renders?: number } = {}) {
  const matrix = await runMatrix(options);
  return { matrix, renderBaseline: await runRenderBaseline({ keys: 1000, renders: options.renders ?? 15 }) };
}

export function describeRenderBaseline(f: MonitorScaleFigures): string {
  return (
    `/metrics at ${f.scaled.keys} keys vs the ${f.baseline.keys} demo keys (monitor-scale.ts): ` +
    `series ${f.scaled.series} vs ${f.baseline.series} (x${fixed(f.seriesRatio, 1)}), ` +
    `render p50 ${fixed(f.scaled.renderMedianMs, 1)} ms vs ${fixed(f.baseline.renderMedianMs, 1)} ms (x${fixed(f.renderRatio, 1)})`
  );
}

if (isEntryPoint(import.meta.url)) {
  const figures = await run({
    keys: listFlag(process.argv, 'keys', { min: 1, max: 20_000 }),
    intervalSeconds: numberFlag(process.argv, 'interval', { min: 5, max: 60 }),
  });
  console.log(describeScale(figures.matrix));
  console.log(describeRenderBaseline(figures.renderBaseline));
}
