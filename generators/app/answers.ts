/**
 * The generator's answers: one table (prompt text, the flag's value name, check, default) and
 * pure functions over it, so every refusal can be tested without running yeoman. A check
 * returns a reason, never a bare boolean.
 */
import {
  AUTH_SCHEMES,
  type AuthScheme,
  BASE_PATH,
  checkBaseUrl,
  isAuthScheme,
  TENANT_SLUG_MAX_LENGTH,
  validateTenantSlug,
} from '../../api/contract/index.js';
import { SANDBOX_DEFAULT_BASE_URL } from '../../sandbox/index.js';
import { envValueProblem } from './env-value.js';

export interface Answers {
  /** Project name; also the directory created unless one is given on the command line. */
  readonly name: string;
  readonly packageName: string;
  readonly tenant: string;
  readonly authScheme: AuthScheme;
  readonly testBaseUrl: string;
  readonly productionBaseUrl: string;
  /** Prefix of every environment variable the generated project reads, e.g. `REPAIR_API`. */
  readonly envPrefix: string;
  readonly githubActions: boolean;
  /** Ship the opt-in `client/paginate.ts` (the spec shows no pagination). */
  readonly pagination: boolean;
  /** Ship the opt-in `client/parse.ts` (the spec does not show the items' fields). */
  readonly parse: boolean;
}

export type AnswerName = keyof Answers;

/** The address `repairmon sandbox` listens on by default; the test environment of a new project. */
export const SANDBOX_BASE_URL = SANDBOX_DEFAULT_BASE_URL;
/**
 * ASSUMPTION: the spec shows no production host. This placeholder is valid (https, ends in
 * /api/v1) so `--yes` works, but it is never a default: the generated config refuses it at
 * startup until `<PREFIX>_PRODUCTION_BASE_URL` is set, naming that variable.
 */
export const PLACEHOLDER_PRODUCTION_BASE_URL = `https://api.repair-service.example${BASE_PATH}`;
const DEFAULT_NAME = 'repair-integration';
/** Also the prefix `repairmon sandbox` prints its export lines with. */
export const DEFAULT_ENV_PREFIX = 'REPAIR_API';

export type Check = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * U+2028 and U+2029 end a line for JavaScript and many editors: no generated file may hold one
 * (render.ts refuses them too), so no answer may, though a URL or a slug could carry them.
 */
const SEPARATOR = /[\u2028\u2029]/;
const SEPARATOR_REASON =
  'cannot contain a line or paragraph separator (U+2028, U+2029): it would break a line of ' +
  'the generated files';

/** The contract's slug check in words (the spec shows no slug format; api/contract/api.ts). */
export const TENANT_RULE =
  `a tenant slug is one URL path segment of 1 to ${TENANT_SLUG_MAX_LENGTH} characters, not "." or ` +
  '"..", without "/", control characters or line separators; anything else (Unicode, spaces, "%", ' +
  'quotes) is taken and percent-encoded in the URL';

function tenantProblem(value: string): string | undefined {
  const result = validateTenantSlug(value);
  const reason = result.ok ? (SEPARATOR.test(value) ? SEPARATOR_REASON : undefined) : result.reason;
  return reason === undefined ? undefined : `${reason} (${TENANT_RULE})`;
}

/** A base URL is written into .env.example too: a value no quoting keeps literal is refused here, by its flag. */
function baseUrlProblem(value: string, requireHttps: boolean): string | undefined {
  const check = checkBaseUrl(value, { requireHttps });
  if (!check.ok) return check.reason;
  return SEPARATOR.test(value) ? SEPARATOR_REASON : envValueProblem(value);
}

/** A directory name that is also a sensible default package name. */
function nameProblem(value: string): string | undefined {
  if (value.trim() === '') return 'is empty';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value))
    return (
      'must start with a letter or digit, then letters, digits, ".", "_" or "-" ' +
      '(it becomes a directory name)'
    );
  if (value.length > 100) return 'is longer than 100 characters';
}

/** npm's rules for new package names, scoped or not. */
function packageNameProblem(value: string): string | undefined {
  if (value === '') return 'is empty';
  if (value.length > 214) return 'is longer than 214 characters';
  if (value === 'node_modules' || value === 'favicon.ico') return 'is a name npm refuses';
  if (!/^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(value))
    return 'must be lowercase, URL-safe and may start with a scope (e.g. "@shop/repair-sync")';
}

export function defaultPackageName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+/, '');
  return cleaned === '' ? DEFAULT_NAME : cleaned;
}

interface AnswerSpec {
  /** The prompt's text, also its flag's help line. */
  readonly message: string;
  /** A text answer's value in help (`--tenant SLUG`); a yes/no answer has none. */
  readonly valueName?: string;
  /** Why a text answer is refused, or undefined. */
  readonly problem?: (value: string) => string | undefined;
  /** The default, given the answers before it. */
  readonly fallback: (earlier: Partial<Answers>) => string | boolean;
}

/** In prompt order: later defaults may depend on earlier answers. */
const SPECS: { readonly [N in AnswerName]: AnswerSpec } = {
  name: {
    message: 'Project name (also the directory to create)',
    valueName: 'NAME',
    problem: nameProblem,
    fallback: () => DEFAULT_NAME,
  },
  packageName: {
    message: 'npm package name',
    valueName: 'NAME',
    problem: packageNameProblem,
    fallback: (earlier) => defaultPackageName(earlier.name ?? DEFAULT_NAME),
  },
  tenant: {
    message: 'Tenant slug your key is assigned to',
    valueName: 'SLUG',
    problem: tenantProblem,
    fallback: () => 'rowery-nowak',
  },
  authScheme: {
    message: 'How to present the key: bearer or x-api-key',
    valueName: 'SCHEME',
    problem: (value) =>
      isAuthScheme(value) ? undefined : `must be one of ${AUTH_SCHEMES.join(', ')}`,
    fallback: () => 'bearer',
  },
  testBaseUrl: {
    message: 'Test environment base URL (ends in /api/v1)',
    valueName: 'URL',
    problem: (value) => baseUrlProblem(value, false),
    fallback: () => SANDBOX_BASE_URL,
  },
  productionBaseUrl: {
    message: 'Production base URL (https, ends in /api/v1)',
    valueName: 'URL',
    problem: (value) => baseUrlProblem(value, true),
    fallback: () => PLACEHOLDER_PRODUCTION_BASE_URL,
  },
  envPrefix: {
    message: 'Prefix of the environment variables',
    valueName: 'PREFIX',
    problem: (value) =>
      /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(value)
        ? undefined
        : 'must be UPPER_SNAKE_CASE, e.g. REPAIR_API',
    fallback: () => DEFAULT_ENV_PREFIX,
  },
  githubActions: { message: 'Add a GitHub Actions workflow', fallback: () => false },
  pagination: {
    message: 'Add paginate.ts, following Link: rel="next" (the spec shows no pagination)',
    fallback: () => false,
  },
  parse: {
    message: 'Add parse.ts, checking and typing items with your schema (the spec shows no fields)',
    fallback: () => false,
  },
};

/** Prompt order. */
export const ANSWER_NAMES = Object.keys(SPECS) as readonly AnswerName[];

export const answerSpec = (name: AnswerName): AnswerSpec => SPECS[name];
/** Yes/no answers; every other answer is text. */
export const isBooleanAnswer = (name: AnswerName): boolean => SPECS[name].valueName === undefined;

/** The default of each answer, given the answers before it. */
export function defaultAnswer(
  name: AnswerName,
  earlier: Partial<Record<AnswerName, unknown>>,
): string | boolean {
  return SPECS[name].fallback(earlier as Partial<Answers>);
}

/** Checks one raw value (a flag, a typed answer or a stored one). */
export function checkAnswer(name: AnswerName, value: unknown): Check {
  let reason: string | undefined;
  if (isBooleanAnswer(name))
    reason = typeof value === 'boolean' ? undefined : 'must be true or false';
  else if (typeof value !== 'string')
    reason = `must be a string, got ${value === null ? 'null' : typeof value}`;
  else
    reason = SPECS[name].problem?.(value) ?? (SEPARATOR.test(value) ? SEPARATOR_REASON : undefined);
  return reason === undefined ? { ok: true } : { ok: false, reason };
}

interface AnswerProblem {
  readonly name: AnswerName;
  readonly value: unknown;
  readonly reason: string;
}

export type AnswersCheck =
  | { readonly ok: true; readonly answers: Answers }
  | {
      readonly ok: false;
      readonly problems: readonly AnswerProblem[];
      readonly missing: readonly AnswerName[];
    };

/** An answer as `.yo-rc.json` keeps it: a base URL without trailing slashes, so one URL is stored one way. */
export function storedForm(name: AnswerName, value: unknown): unknown {
  return name.endsWith('BaseUrl') ? String(value).trim().replace(/\/+$/, '') : value;
}

/** Validates a complete set; reports every problem at once, not just the first. */
export function completeAnswers(raw: Partial<Record<AnswerName, unknown>>): AnswersCheck {
  const problems: AnswerProblem[] = [];
  const missing = ANSWER_NAMES.filter((name) => raw[name] === undefined);
  for (const name of ANSWER_NAMES) {
    const check = raw[name] === undefined ? undefined : checkAnswer(name, raw[name]);
    if (check?.ok === false) problems.push({ name, value: raw[name], reason: check.reason });
  }
  if (problems.length > 0 || missing.length > 0) return { ok: false, problems, missing };
  // In prompt order so .yo-rc.json reads the same however the answers arrived.
  const entries = ANSWER_NAMES.map((name) => [name, storedForm(name, raw[name])]);
  return { ok: true, answers: Object.fromEntries(entries) as unknown as Answers };
}

/** Picks only answer fields out of a stored config, so nothing else (never a key) is kept. */
export function pickAnswers(stored: Record<string, unknown>): Partial<Record<AnswerName, unknown>> {
  return Object.fromEntries(
    ANSWER_NAMES.filter((name) => stored[name] !== undefined).map((name) => [name, stored[name]]),
  );
}
