/**
 * Time compression for the alert-latency stack: every duration in the shipped rules and routing
 * (`for`, `keep_firing_for`, range selectors, group_wait...) divided by one factor, so the
 * pipeline runs that much faster with the same shape. Pure text-in, text-out.
 */
import YAML from 'yaml';

const UNIT_MS: Readonly<Record<string, number>> = {
  y: 365 * 86_400_000,
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1_000,
  ms: 1,
};
const PART = /(\d+)(ms|y|w|d|h|m|s)/g;
const DURATION = /^(?:\d+(?:ms|y|w|d|h|m|s))+$/;

/** A Prometheus duration (`90s`, `1h30m`, `250ms`) in ms; undefined when it is not one. */
export function parsePromDuration(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(PART)) ms += Number(n) * (UNIT_MS[unit ?? 's'] ?? 0);
  return ms;
}

/** ms as the shortest exact Prometheus duration: `2h`, `144m`, `10s`, `333ms`. */
export function formatPromDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  for (const unit of ['h', 'm', 's']) {
    const size = UNIT_MS[unit] ?? 1;
    if (whole > 0 && whole % size === 0) return `${whole / size}${unit}`;
  }
  return whole === 0 ? '0s' : `${whole}ms`;
}

export function scaleDuration(text: string, factor: number): string {
  const ms = parsePromDuration(text);
  if (ms === undefined) throw new Error(`not a Prometheus duration: "${text}"`);
  return formatPromDuration(ms / factor);
}

/** Every range selector and subquery range in a PromQL expression (`[5m]`, `[10m:30s]`), scaled. */
export function scaleExpr(expr: string, factor: number): string {
  return expr.replace(/\[(\w+)(?::(\w*))?\]/g, (_, range: string, step: string | undefined) => {
    const scaled = scaleDuration(range, factor);
    return step === undefined ? `[${scaled}]` : `[${scaled}:${step === '' ? '' : scaleDuration(step, factor)}]`;
  });
}

type RuleDoc = { groups: Array<{ name: string; interval?: string; rules: Array<Record<string, unknown>> }> };

/** A rules file with every duration divided by `factor`; `maxHoldMs`: the longest `for` or `keep_firing_for` after scaling (say why where you call it). */
export function scaleRules(yamlText: string, factor: number, options: { maxHoldMs?: number } = {}): string {
  const doc = YAML.parse(yamlText) as RuleDoc;
  const hold = (text: string): string => {
    const ms = (parsePromDuration(text) ?? 0) / factor;
    return formatPromDuration(Math.min(ms, options.maxHoldMs ?? ms));
  };
  for (const group of doc.groups) {
    if (group.interval !== undefined) group.interval = scaleDuration(group.interval, factor);
    group.rules = group.rules.map((rule) => {
      const out: Record<string, unknown> = { ...rule, expr: scaleExpr(String(rule['expr']), factor) };
      for (const field of ['for', 'keep_firing_for']) if (typeof rule[field] === 'string') out[field] = hold(rule[field]);
      return out;
    });
  }
  return YAML.stringify(doc);
}

type Route = { group_wait?: string; group_interval?: string; repeat_interval?: string; routes?: Route[] };

function scaleRoute(route: Route, factor: number): Route {
  const out: Route = { ...route };
  for (const field of ['group_wait', 'group_interval', 'repeat_interval'] as const) {
    const value = route[field];
    if (value !== undefined) out[field] = scaleDuration(value, factor);
  }
  if (route.routes) out.routes = route.routes.map((r) => scaleRoute(r, factor));
  return out;
}

/**
 * An Alertmanager config with its routing timings divided by `factor` and every receiver's
 * webhooks sent to `${webhookBase}/${receiver name}`, so each notification says where it was
 * routed.
 */
export function scaleAlertmanager(yamlText: string, factor: number, webhookBase: string): string {
  const doc = YAML.parse(yamlText) as { route: Route; receivers: Array<{ name: string; webhook_configs?: Array<{ url: string }> }> };
  doc.route = scaleRoute(doc.route, factor);
  doc.receivers = doc.receivers.map((r) => ({
    ...r,
    webhook_configs: (r.webhook_configs ?? [{ url: '' }]).map((w) => ({ ...w, url: `${webhookBase}/${r.name}` })),
  }));
  return YAML.stringify(doc);
}
