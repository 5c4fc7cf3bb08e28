/**
 * The Grafana dashboard's structure (its queries are checked in expressions.test.ts): the
 * datasource is a variable, ids are unique, panels sit on the 24-column grid without
 * overlapping, and the sections an ops person looks for are there.
 */
import { describe, expect, it } from 'vitest';
import { readDashboard } from './helpers/expressions.js';

interface GridPanel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: { datasource?: { uid: string }; expr?: string }[];
}

const dashboard = readDashboard() as unknown as {
  uid: string;
  panels: GridPanel[];
  templating: { list: { name: string; type: string; query?: unknown }[] };
};
const panels = dashboard.panels;

describe('Grafana dashboard', () => {
  it('takes its Prometheus datasource from a variable, in every panel and query', () => {
    const variable = dashboard.templating.list.find((v) => v.name === 'datasource');
    expect(variable).toMatchObject({ type: 'datasource', query: 'prometheus' });
    for (const p of panels.filter((q) => q.type !== 'row')) {
      expect(p.datasource?.uid, p.title).toBe('${datasource}');
      for (const t of p.targets ?? []) expect(t.datasource?.uid, p.title).toBe('${datasource}');
    }
  });

  it('filters by target, tenant, endpoint and key alias', () => {
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(expect.arrayContaining(['target', 'tenant', 'endpoint', 'key_alias']));
  });

  it('has unique panel ids and a stable uid', () => {
    const ids = panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.uid).toBe('repairmon-overview');
  });

  it('lays panels on the 24-column grid without overlaps', () => {
    const cells = new Set<string>();
    for (const p of panels) {
      const { x, y, w, h } = p.gridPos;
      expect(x + w, p.title).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i += 1) {
        for (let j = y; j < y + h; j += 1) {
          const cell = `${i},${j}`;
          expect(cells.has(cell), `${p.title} overlaps at ${cell}`).toBe(false);
          cells.add(cell);
        }
      }
    }
  });

  it('has the sections ops asked for', () => {
    const rows = panels.filter((p) => p.type === 'row').map((p) => p.title);
    expect(rows).toEqual([
      'Overview per target',
      'Per-tenant grid',
      'Latency',
      'Outcomes over time',
      'Authorization canaries',
      'Rate limiting',
      'The monitor itself',
    ]);
    const titles = panels.map((p) => p.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Last read result: tenant x endpoint',
        'p50 / p95 / p99 per endpoint (10m)',
        'Canary results',
        'Probes per minute by outcome',
      ]),
    );
  });
});
