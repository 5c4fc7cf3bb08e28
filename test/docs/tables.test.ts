/**
 * Tables in the docs that restate code are checked against it, so they fail when they drift:
 * the generator's prompts (docs/integrators.md), the series `metrics.perKeyOutcomes` adds per
 * probe (docs/monitor.md, the example config, check-config's projection), the sandbox's fault
 * kinds with their examples (docs/sandbox.md), and the generator's exit codes (README).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANSWER_FLAGS } from '../../generators/app/flags.js';
import { GENERATOR_EXIT } from '../../generators/app/refusal.js';
import { projectedSeries } from '../../monitor/metrics/projection.js';
import { OUTCOMES } from '../../monitor/probe/expectation.js';
import { FAULT_KINDS, parseFaultSpec, startSandbox } from '../../sandbox/index.js';
import { demoConfig } from '../../monitor/demo-config.js';
import { ROOT } from '../helpers/rig.js';

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
/** The rows of the first Markdown table after `marker`, as cells. */
function tableAfter(text: string, marker: string): string[][] {
  const lines = text.slice(text.indexOf(marker)).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .replace(/\\\|/g, '\u0000')
        .split('|')
        .slice(1, -1)
        .map((c) => c.replace(/\u0000/g, '|').trim()),
    );
  }
  return rows;
}

describe('docs tables that restate code', () => {
  it('docs/integrators.md has one row per prompt, each naming its flag as --help does', () => {
    const rows = tableAfter(read('docs/integrators.md'), '| Prompt | Flag |');
    expect(rows).toHaveLength(ANSWER_FLAGS.length);
    ANSWER_FLAGS.forEach((spec, i) => {
      const flag = rows[i]?.[1] ?? '';
      if (spec.type === 'boolean') expect(flag, spec.flag).toBe(`\`--${spec.flag}\` / \`--no-${spec.flag}\``);
      else expect(flag, spec.flag).toMatch(new RegExp(`^\`--${spec.flag} \\S`));
    });
  });

  it('perKeyOutcomes: the docs and the example config say the series per probe check-config projects', async () => {
    const sandbox = await startSandbox();
    try {
      const config = demoConfig(sandbox, {});
      const off = projectedSeries({ ...config, metrics: { perKeyOutcomes: false } });
      const on = projectedSeries({ ...config, metrics: { perKeyOutcomes: true } });
      // Per key, the outcome counters are per probe: one series per outcome.
      expect(on.perProbe - off.perProbe).toBe(OUTCOMES.length);
    } finally {
      await sandbox.close();
    }
    const said = `${OUTCOMES.length} series per probe`;
    expect(read('docs/monitor.md')).toMatch(new RegExp(`perKeyOutcomes: false \\}.*\\(${said}\\)`));
    expect(read('monitor/examples/monitor.yaml')).toMatch(new RegExp(`perKeyOutcomes: false .*per key, ${said}\\)`));
  });

  it('docs/sandbox.md lists every fault kind once, each example parsing to its kind', () => {
    const rows = tableAfter(read('docs/sandbox.md'), '| Kind | Effect | Example |');
    const kinds = rows.map((r) => /^`([a-z0-9-]+)/.exec(r[0] ?? '')?.[1]);
    expect(kinds).toEqual([...FAULT_KINDS]);
    rows.forEach(([, , example = ''], i) => {
      const parsed = parseFaultSpec(example.replace(/`/g, ''));
      expect(parsed.ok && parsed.rules[0]?.action.kind, example).toBe(FAULT_KINDS[i]);
    });
  });

  it("the README's exit codes for repairmon new are the generator's", () => {
    const row = read('README.md')
      .split('\n')
      .find((l) => l.startsWith('| `repairmon new'));
    expect(row).toContain(`${GENERATOR_EXIT.refused} refused (nothing written; also under \`yo\`)`);
    expect(row).toContain(`${GENERATOR_EXIT.cancelled} cancelled (Ctrl+C, nothing written)`);
    expect(row).toContain(`${GENERATOR_EXIT.failed} a write failed (rolled back)`);
  });
});
