/**
 * Just enough of GitHub Actions to run a generated workflow's steps locally: the first job's
 * `env`, each step's `if` and `env`, and the expressions those use (`secrets.X`, `vars.X`,
 * `env.X`, string literals, `==`, `!=`, `&&`, `||`). Unknown syntax throws, so a workflow that
 * outgrows this fails the test instead of being half-evaluated.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface Contexts {
  readonly secrets: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>>;
}

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly if?: string;
  readonly env?: Readonly<Record<string, string>>;
}

export interface PlannedStep {
  readonly label: string;
  readonly run: string;
  /** The job's and the step's env, expressions resolved. */
  readonly env: Readonly<Record<string, string>>;
}

type Value = string | boolean;
const truthy = (v: Value): boolean => v !== '' && v !== false;

function tokens(expr: string): string[] {
  const out = expr.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[A-Za-z_][A-Za-z0-9_.-]*|\S/g) ?? [];
  for (const t of out) if (!/^('|==|!=|&&|\|\||[A-Za-z_])/.test(t)) throw new Error(`unsupported token ${t} in ${expr}`);
  return out;
}

export function evaluate(expr: string, ctx: Contexts & { env: Readonly<Record<string, string>> }): Value {
  const ts = tokens(expr);
  let i = 0;
  const primary = (): Value => {
    const t = ts[i++];
    if (t === undefined) throw new Error(`unexpected end of ${expr}`);
    if (t.startsWith("'")) return t.slice(1, -1).replaceAll("''", "'");
    const [scope, name, ...rest] = t.split('.');
    if (rest.length > 0 || name === undefined) throw new Error(`unsupported reference ${t}`);
    if (scope === 'secrets') return ctx.secrets[name] ?? '';
    if (scope === 'vars') return ctx.vars[name] ?? '';
    if (scope === 'env') return ctx.env[name] ?? '';
    throw new Error(`unsupported context ${scope}`);
  };
  const comparison = (): Value => {
    const left = primary();
    const op = ts[i];
    if (op !== '==' && op !== '!=') return left;
    i++;
    const right = primary();
    return op === '==' ? String(left) === String(right) : String(left) !== String(right);
  };
  const and = (): Value => {
    let v = comparison();
    while (ts[i] === '&&') {
      i++;
      const r = comparison();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  let v = and();
  while (ts[i] === '||') {
    i++;
    const r = and();
    v = truthy(v) ? v : r;
  }
  if (i !== ts.length) throw new Error(`unsupported expression ${expr}`);
  return v;
}

function expand(text: string, ctx: Contexts & { env: Readonly<Record<string, string>> }): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_m, inner: string) => String(evaluate(inner.trim(), ctx)));
}

/** The steps with a `run` that would run for these secrets and variables, in order, with their env. */
export function planWorkflow(file: string, contexts: Contexts): PlannedStep[] {
  const doc = parse(readFileSync(file, 'utf8')) as { jobs: Record<string, { env?: Record<string, string>; steps: Step[] }> };
  const job = Object.values(doc.jobs)[0];
  if (!job) throw new Error(`${file} has no job`);
  const jobEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(job.env ?? {})) jobEnv[k] = expand(String(v), { ...contexts, env: jobEnv });
  const out: PlannedStep[] = [];
  for (const step of job.steps) {
    if (step.run === undefined) continue;
    const condition = step.if?.replace(/^\$\{\{|\}\}$/g, '');
    if (condition !== undefined && !truthy(evaluate(condition, { ...contexts, env: jobEnv }))) continue;
    const env = { ...jobEnv };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(String(v), { ...contexts, env: jobEnv });
    out.push({ label: step.name ?? step.run, run: step.run, env });
  }
  return out;
}
