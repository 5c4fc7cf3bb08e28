/**
 * Opt-in (`yo repair-service --parse`): typing what the spec does not show, the fields of clients,
 * bikes, repairs and logs. A validator is a zod-like schema (`safeParse` or `parse`), a Standard
 * Schema (valibot, arktype; synchronous) or a type guard; a schema's output replaces the value. A
 * refusal is a `ParseError` naming the item and what the validator said, never the item itself.
 */
import type { ApiPromise, ApiResponse } from './client.js';
import { ParseError } from './errors.js';

type TypeGuard<T> = (value: unknown) => value is T;
type SafeParser<T> = {
  safeParse(
    value: unknown,
  ):
    | { readonly success: true; readonly data: T }
    | { readonly success: false; readonly error: unknown };
};
type Parser<T> = { parse(value: unknown): T };
type StandardSchemaLike<T> = {
  readonly '~standard': {
    readonly validate: (value: unknown) => unknown;
    readonly types?: { readonly output: T };
  };
};
export type Validator<T> = TypeGuard<T> | SafeParser<T> | Parser<T> | StandardSchemaLike<T>;

/** The value to keep, or what the validator said. */
type Check = (
  value: unknown,
) =>
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issue: string };

/** At most three issues as `path: message`, cut to 300 characters. */
function describeIssue(error: unknown): string {
  const issues = (error as { issues?: unknown } | null)?.issues;
  let text = error instanceof Error ? error.message : String(error);
  if (Array.isArray(issues)) {
    const named = issues.slice(0, 3).map((i: { path?: unknown; message?: unknown }) => {
      const path = Array.isArray(i.path)
        ? i.path
            .map((p: unknown) =>
              String(typeof p === 'object' && p !== null && 'key' in p ? p.key : p),
            )
            .join('.')
        : '';
      return `${path ? `${path}: ` : ''}${typeof i.message === 'string' ? i.message : 'invalid'}`;
    });
    text = named.join('; ') + (issues.length > 3 ? `; and ${issues.length - 3} more` : '');
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

/** The validator as one function; a TypeError when it is none of the shapes. */
function toCheck(validator: Validator<unknown>): Check {
  const v = validator as Partial<
    SafeParser<unknown> & Parser<unknown> & StandardSchemaLike<unknown>
  >;
  const standard = v?.['~standard'];
  if (typeof v?.safeParse === 'function') {
    const schema = v as SafeParser<unknown>;
    return (value) => {
      const r = schema.safeParse(value);
      return r.success ? { ok: true, value: r.data } : { ok: false, issue: describeIssue(r.error) };
    };
  }
  if (typeof v?.parse === 'function') {
    const schema = v as Parser<unknown>;
    return (value) => {
      try {
        return { ok: true, value: schema.parse(value) };
      } catch (error) {
        return { ok: false, issue: describeIssue(error) };
      }
    };
  }
  if (typeof standard?.validate === 'function') {
    return (value) => {
      const r = standard.validate(value) as { value?: unknown; issues?: unknown; then?: unknown };
      if (typeof r.then === 'function')
        return {
          ok: false,
          issue: 'the schema validates asynchronously; the parse hook needs a synchronous one',
        };
      return r.issues === undefined
        ? { ok: true, value: r.value }
        : { ok: false, issue: describeIssue(r) };
    };
  }
  if (typeof validator === 'function') {
    const guard = validator;
    return (value) =>
      guard(value) === true
        ? { ok: true, value }
        : {
            ok: false,
            issue: `the type guard${guard.name ? ` ${guard.name}` : ''} returned false`,
          };
  }
  throw new TypeError(
    'the validator must be a schema with safeParse() or parse(), a Standard Schema, ' +
      'or a type guard function',
  );
}

/**
 * The checked value, or the `ParseError` of the call `response` came with (`index`: the item's
 * place in a list).
 */
function checked<T>(check: Check, value: unknown, response: ApiResponse, index?: number): T {
  const result = check(value);
  if (result.ok) return result.value as T;
  const { issue } = result;
  const { method, path, status, requestId, traceId, attempts } = response;
  const what = index === undefined ? 'data' : `item ${index}`;
  const message = `${method} ${path}: ${what} failed the parse hook: ${issue}`;
  throw new ParseError({
    kind: 'parse_failed',
    message,
    method,
    path,
    status,
    requestId,
    traceId,
    attempts,
    index,
    issue,
  });
}

/**
 * Checks each item of a list with `validator`: what `parseItems` and paginate.ts's `parse` option
 * run.
 */
export function checkItems<T>(
  validator: Validator<T>,
): (items: readonly unknown[], response: ApiResponse) => T[] {
  const check = toCheck(validator);
  return (items, response) => items.map((item, i) => checked<T>(check, item, response, i));
}

/**
 * The call is already on its way when its validator is refused: its own outcome is then of no use.
 */
function refusedBefore<C>(call: Promise<unknown>, make: () => C): C {
  try {
    return make();
  } catch (error) {
    call.catch(() => undefined);
    throw error;
  }
}

/**
 * Each item of a list call, checked and typed: `await parseItems(client.list('repairs'), Repair)`.
 */
export function parseItems<T>(
  call: ApiPromise<readonly unknown[]>,
  validator: Validator<T>,
): Promise<readonly T[]> {
  const check = refusedBefore(call, () => checkItems(validator));
  return call.withResponse().then(({ data, response }) => check(data, response));
}

/**
 * The whole `data` of a call, checked and typed: `await
 * parseData(client.get('/tenants/x/repairs/17'), Repair)`.
 */
export function parseData<T>(call: ApiPromise<unknown>, validator: Validator<T>): Promise<T> {
  const check = refusedBefore(call, () => toCheck(validator as Validator<unknown>));
  return call.withResponse().then(({ data, response }) => checked<T>(check, data, response));
}
