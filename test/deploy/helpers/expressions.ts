/**
 * Every PromQL expression the ops kit ships: each rule of the rules files, each panel query of
 * the Grafana dashboard and the metric selectors inside its template-variable queries, with
 * Grafana's variables replaced so Prometheus can run them.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'yaml';
import { DASHBOARD, RULE_FILES } from './paths.js';

export interface Expression {
  /** Where it comes from, for failure messages: `alerting-rules.yml RepairmonEndpointDown`. */
  readonly source: string;
  readonly expr: string;
}

export interface Rule {
  readonly record?: string;
  readonly alert?: string;
  readonly expr: string;
  readonly for?: string;
  readonly keep_firing_for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

export function readRules(file: string): Rule[] {
  const doc = parse(readFileSync(file, 'utf8')) as { groups: { rules: Rule[] }[] };
  return doc.groups.flatMap((g) => g.rules);
}

export function ruleExpressions(): Expression[] {
  return RULE_FILES.flatMap((file) => readRules(file).map((r) => ({ source: `${basename(file)} ${r.alert ?? r.record}`, expr: r.expr })));
}

/** Names the recording rules create: valid metric names for the dashboard and the alerts. */
export function recordedNames(): Set<string> {
  return new Set(RULE_FILES.flatMap((file) => readRules(file).flatMap((r) => (r.record ? [r.record] : []))));
}

interface Panel {
  readonly title?: string;
  readonly targets?: { expr?: string; refId?: string }[];
  readonly panels?: Panel[];
}

interface Dashboard {
  readonly panels: Panel[];
  readonly templating: { list: { name: string; type: string; query?: string | { query: string } }[] };
}

export function readDashboard(): Dashboard {
  return JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
}

function flatPanels(panels: readonly Panel[]): Panel[] {
  return panels.flatMap((p) => [p, ...flatPanels(p.panels ?? [])]);
}

/** `label_values(SELECTOR, label)` and `query_result(EXPR)` hold PromQL; other variable kinds do not. */
function variableExpression(query: string): string | undefined {
  const labelValues = /^label_values\((.+),\s*[A-Za-z_][A-Za-z0-9_]*\)$/.exec(query.trim());
  if (labelValues) return labelValues[1];
  const queryResult = /^query_result\((.+)\)$/.exec(query.trim());
  return queryResult?.[1];
}

export function dashboardExpressions(): Expression[] {
  const dashboard = readDashboard();
  const fromPanels = flatPanels(dashboard.panels).flatMap((panel) =>
    (panel.targets ?? []).flatMap((t) => (t.expr ? [{ source: `dashboard "${panel.title}" ${t.refId ?? ''}`.trim(), expr: t.expr }] : [])),
  );
  const fromVariables = dashboard.templating.list.flatMap((v) => {
    if (v.type !== 'query' || v.query === undefined) return [];
    const text = typeof v.query === 'string' ? v.query : v.query.query;
    const expr = variableExpression(text);
    return expr ? [{ source: `dashboard variable $${v.name}`, expr }] : [];
  });
  return [...fromPanels, ...fromVariables];
}

/**
 * Grafana's variables, replaced as "All" would be: label variables by the regex `.*` (empty
 * labels such as tenant="" must match too), range variables by a fixed 1m.
 */
export function substituteVariables(expr: string): string {
  return expr
    .replace(/\$__(rate_interval|interval|range)\b/g, '1m')
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::[a-z]+)?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, '.*');
}

export function allExpressions(): Expression[] {
  return [...ruleExpressions(), ...dashboardExpressions()].map((e) => ({ ...e, expr: substituteVariables(e.expr) }));
}
