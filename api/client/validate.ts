/**
 * The `parse` hook: how a caller types what the spec leaves "not shown" (the fields of clients,
 * bikes, repairs and logs). Any of these works, with no library required by the client:
 * - a zod-like schema: anything with `safeParse(value)` or `parse(value)` (zod, yup-like, your own);
 * - a Standard Schema (`~standard.validate`, synchronous), e.g. valibot or arktype;
 * - a type guard `(value: unknown) => value is T`.
 * The validator's output replaces the item (a schema may strip or transform fields). A failure
 * says which item and what the validator said, never the item itself.
 */

export type TypeGuard<T> = (value: unknown) => value is T;

export interface SafeParser<T> {
  safeParse(value: unknown): { readonly success: true; readonly data: T } | { readonly success: false; readonly error: unknown };
}

export interface Parser<T> {
  parse(value: unknown): T;
}

export interface StandardSchemaLike<T> {
  readonly '~standard': {
    readonly validate: (value: unknown) => unknown;
    readonly types?: { readonly output: T } | undefined;
  };
}

export type Validator<T> = TypeGuard<T> | SafeParser<T> | Parser<T> | StandardSchemaLike<T>;

/** What a validator returns for a bad value; its output for a good one is returned as is. */
export class Invalid {
  constructor(readonly issue: string) {}
}

/** A validator turned into one function: the value to keep, or `Invalid`. */
export type Check = (value: unknown) => unknown;

/** Validator messages are cut to this, so a verbose one cannot turn into a dump of the body. */
export const ISSUE_CHARS = 300;

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ISSUE_CHARS ? `${flat.slice(0, ISSUE_CHARS - 1)}…` : flat;
}

interface IssueLike {
  readonly message?: unknown;
  readonly path?: unknown;
}

function issuePath(path: unknown): string {
  if (!Array.isArray(path) || path.length === 0) return '';
  return `${path.map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String((p as { key: unknown }).key) : String(p))).join('.')}: `;
}

/** The first issues of a zod-style or Standard Schema error, else the error's message. */
export function describeIssue(error: unknown): string {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    const shown = (issues as IssueLike[]).slice(0, 3).map((i) => `${issuePath(i.path)}${String(i.message ?? 'invalid')}`);
    return shorten(shown.join('; ') + (issues.length > 3 ? `; and ${issues.length - 3} more` : ''));
  }
  return shorten(error instanceof Error ? error.message : String(error));
}

function standardCheck(schema: StandardSchemaLike<unknown>): Check {
  return (value) => {
    const result = schema['~standard'].validate(value) as { value?: unknown; issues?: unknown } | PromiseLike<unknown>;
    if (typeof (result as PromiseLike<unknown>).then === 'function') return new Invalid('the schema validates asynchronously; the parse hook needs a synchronous one');
    const { issues, value: out } = result as { value?: unknown; issues?: unknown };
    return issues === undefined ? out : new Invalid(describeIssue({ issues }));
  };
}

/** Throws a TypeError naming `option` when `validator` is none of the accepted shapes. */
export function toCheck(validator: Validator<unknown>, option: string): Check {
  const v = validator as Partial<SafeParser<unknown> & Parser<unknown> & StandardSchemaLike<unknown>>;
  if (typeof v?.safeParse === 'function') {
    const schema = v as SafeParser<unknown>;
    return (value) => {
      const result = schema.safeParse(value);
      return result.success ? result.data : new Invalid(describeIssue(result.error));
    };
  }
  if (typeof v?.parse === 'function') {
    const schema = v as Parser<unknown>;
    return (value) => {
      try {
        return schema.parse(value);
      } catch (error) {
        return new Invalid(describeIssue(error));
      }
    };
  }
  if (typeof v?.['~standard']?.validate === 'function') return standardCheck(v as StandardSchemaLike<unknown>);
  if (typeof validator === 'function') {
    const guard = validator as TypeGuard<unknown>;
    const name = guard.name ? ` ${guard.name}` : '';
    return (value) => (guard(value) === true ? value : new Invalid(`the type guard${name} returned false`));
  }
  throw new TypeError(`option "${option}" must be a schema with safeParse() or parse(), a Standard Schema, or a type guard function`);
}

/** The first failure, or the checked items (a new array: schemas may transform). */
export function checkItems(items: readonly unknown[], check: Check): { readonly items: unknown[] } | { readonly index: number; readonly issue: string } {
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i += 1) {
    const result = check(items[i]);
    if (result instanceof Invalid) return { index: i, issue: result.issue };
    out[i] = result;
  }
  return { items: out };
}
