/**
 * The `parse` hook: how you type what the spec does not show (the fields of clients, bikes,
 * repairs and logs). A zod-like schema (`safeParse` or `parse`), a Standard Schema (valibot,
 * arktype; synchronous) or a type guard. The schema's output replaces the value; a failure says
 * which item and what the validator said, never the item itself.
 */
export type TypeGuard<T> = (value: unknown) => value is T;
export interface SafeParser<T> {
  safeParse(value: unknown): { readonly success: true; readonly data: T } | { readonly success: false; readonly error: unknown };
}
export interface Parser<T> {
  parse(value: unknown): T;
}
export interface StandardSchemaLike<T> {
  readonly '~standard': { readonly validate: (value: unknown) => unknown; readonly types?: { readonly output: T } | undefined };
}
export type Validator<T> = TypeGuard<T> | SafeParser<T> | Parser<T> | StandardSchemaLike<T>;

/** The value to keep, or what the validator said (cut to 300 characters). */
export type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issue: string };

function describeIssue(error: unknown): string {
  const issues = (error as { issues?: unknown } | null)?.issues;
  const text = Array.isArray(issues)
    ? issues
        .slice(0, 3)
        .map((i: { path?: unknown; message?: unknown }) => `${Array.isArray(i.path) && i.path.length > 0 ? `${i.path.map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String(p.key) : String(p))).join('.')}: ` : ''}${String(i.message ?? 'invalid')}`)
        .join('; ') + (issues.length > 3 ? `; and ${issues.length - 3} more` : '')
    : error instanceof Error
      ? error.message
      : String(error);
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

/** The validator as one function; throws a TypeError naming the option when it is none of the shapes. */
export function toCheck(validator: Validator<unknown>, option: string): (value: unknown) => Checked {
  const v = validator as Partial<SafeParser<unknown> & Parser<unknown> & StandardSchemaLike<unknown>>;
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
  const standard = v?.['~standard'];
  if (typeof standard?.validate === 'function') {
    return (value) => {
      const r = standard.validate(value) as { value?: unknown; issues?: unknown; then?: unknown };
      if (typeof r.then === 'function') return { ok: false, issue: 'the schema validates asynchronously; the parse hook needs a synchronous one' };
      return r.issues === undefined ? { ok: true, value: r.value } : { ok: false, issue: describeIssue(r) };
    };
  }
  if (typeof validator === 'function') {
    const guard = validator as TypeGuard<unknown>;
    return (value) => (guard(value) === true ? { ok: true, value } : { ok: false, issue: `the type guard${guard.name ? ` ${guard.name}` : ''} returned false` });
  }
  throw new TypeError(`option "${option}" must be a schema with safeParse() or parse(), a Standard Schema, or a type guard function`);
}
