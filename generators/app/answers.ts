/**
 * The generator's answers and their validation: pure functions, no I/O, so every refusal can
 * be tested without running yeoman. A check returns a reason, never a bare boolean.
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

/** Prompt order; later defaults may depend on earlier answers. */
export const ANSWER_NAMES: readonly AnswerName[] = [
  'name',
  'packageName',
  'tenant',
  'authScheme',
  'testBaseUrl',
  'productionBaseUrl',
  'envPrefix',
  'githubActions',
  'pagination',
  'parse',
];

/** Yes/no answers; every other answer is text. */
const BOOLEAN_ANSWERS: ReadonlySet<AnswerName> = new Set(['githubActions', 'pagination', 'parse']);
export const isBooleanAnswer = (name: AnswerName): boolean => BOOLEAN_ANSWERS.has(name);

/** The address `repairmon sandbox` listens on by default; the test environment of a new project. */
export const SANDBOX_BASE_URL = SANDBOX_DEFAULT_BASE_URL;
/**
 * ASSUMPTION: the spec shows no production host. This placeholder is valid (https, ends in
 * /api/v1) so `--yes` works, but it is never a default: the generated config refuses it at
 * startup until `<PREFIX>_PRODUCTION_BASE_URL` is set, naming that variable.
 */
export const PLACEHOLDER_PRODUCTION_BASE_URL = `https://api.repair-service.example${BASE_PATH}`;
export const DEFAULT_NAME = 'repair-integration';
export const DEFAULT_TENANT = 'rowery-nowak';
/** Also the prefix `repairmon sandbox` prints its export lines with. */
export const DEFAULT_ENV_PREFIX = 'REPAIR_API';

export type Check = { readonly ok: true } | { readonly ok: false; readonly reason: string };
const OK: Check = { ok: true };
const bad = (reason: string): Check => ({ ok: false, reason });

/** A directory name that is also a sensible default package name. */
export function checkName(value: string): Check {
  if (value.trim() === '') return bad('is empty');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value))
    return bad('must be letters, digits, ".", "_" or "-" (it becomes a directory name)');
  if (value.length > 100) return bad('is longer than 100 characters');
  return OK;
}

/** npm's rules for new package names, scoped or not. */
export function checkPackageName(value: string): Check {
  if (value === '') return bad('is empty');
  if (value.length > 214) return bad('is longer than 214 characters');
  if (!/^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(value)) {
    return bad('must be lowercase, URL-safe and may start with a scope (e.g. "@shop/repair-sync")');
  }
  return OK;
}

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

export function checkTenant(value: string): Check {
  const result = validateTenantSlug(value);
  const reason = result.ok ? (SEPARATOR.test(value) ? SEPARATOR_REASON : undefined) : result.reason;
  return reason === undefined ? OK : bad(`${reason} (${TENANT_RULE})`);
}

export function checkAuthScheme(value: string): Check {
  return isAuthScheme(value) ? OK : bad(`must be one of ${AUTH_SCHEMES.join(', ')}`);
}

function baseUrlAnswer(value: string, requireHttps: boolean): Check {
  const check = checkBaseUrl(value, { requireHttps });
  return check.ok ? OK : bad(check.reason);
}

export const checkTestBaseUrl = (value: string): Check => baseUrlAnswer(value, false);
export const checkProductionBaseUrl = (value: string): Check => baseUrlAnswer(value, true);

export function checkEnvPrefix(value: string): Check {
  if (!/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(value))
    return bad('must be UPPER_SNAKE_CASE, e.g. REPAIR_API');
  return OK;
}

/** Trailing slashes are dropped so the same URL is always stored the same way. */
export function normaliseBaseUrl(value: string): string {
  return value.trim().replace(/\/+$/, '');
}

export function defaultPackageName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+/, '');
  return cleaned === '' ? DEFAULT_NAME : cleaned;
}

/** The default of each answer, given the answers before it. */
export function defaultAnswer(name: AnswerName, earlier: Partial<Answers>): string | boolean {
  switch (name) {
    case 'name':
      return DEFAULT_NAME;
    case 'packageName':
      return defaultPackageName(earlier.name ?? DEFAULT_NAME);
    case 'tenant':
      return DEFAULT_TENANT;
    case 'authScheme':
      return 'bearer';
    case 'testBaseUrl':
      return SANDBOX_BASE_URL;
    case 'productionBaseUrl':
      return PLACEHOLDER_PRODUCTION_BASE_URL;
    case 'envPrefix':
      return DEFAULT_ENV_PREFIX;
    case 'githubActions':
    case 'pagination':
    case 'parse':
      return false;
  }
}

const STRING_CHECKS: Readonly<Partial<Record<AnswerName, (value: string) => Check>>> = {
  name: checkName,
  packageName: checkPackageName,
  tenant: checkTenant,
  authScheme: checkAuthScheme,
  testBaseUrl: checkTestBaseUrl,
  productionBaseUrl: checkProductionBaseUrl,
  envPrefix: checkEnvPrefix,
};

// The tenant is not here: a name the contract takes is never refused for its quotes; its line in
// .env.example becomes a comment instead (render.ts `envLine`), src/config.ts defaulting to it.
const ENV_FILE_ANSWERS: ReadonlySet<AnswerName> = new Set(['testBaseUrl', 'productionBaseUrl']);

/** Checks one raw value (a flag, a typed answer or a stored one). */
export function checkAnswer(name: AnswerName, value: unknown): Check {
  if (isBooleanAnswer(name)) return typeof value === 'boolean' ? OK : bad('must be true or false');
  if (typeof value !== 'string')
    return bad(`must be a string, got ${value === null ? 'null' : typeof value}`);
  const check = STRING_CHECKS[name]?.(value) ?? OK;
  if (check.ok && SEPARATOR.test(value)) return bad(SEPARATOR_REASON);
  // These are written into .env.example: a value no quoting keeps literal is refused here, by its flag.
  const envProblem = check.ok && ENV_FILE_ANSWERS.has(name) ? envValueProblem(value) : undefined;
  return envProblem === undefined ? check : bad(envProblem);
}

export interface AnswerProblem {
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

/** Validates a complete set; reports every problem at once, not just the first. */
export function completeAnswers(raw: Partial<Record<AnswerName, unknown>>): AnswersCheck {
  const problems: AnswerProblem[] = [];
  const missing: AnswerName[] = [];
  for (const name of ANSWER_NAMES) {
    const value = raw[name];
    if (value === undefined) {
      missing.push(name);
      continue;
    }
    const check = checkAnswer(name, value);
    if (!check.ok) problems.push({ name, value, reason: check.reason });
  }
  if (problems.length > 0 || missing.length > 0) return { ok: false, problems, missing };
  const given = raw as unknown as Answers;
  // Built in prompt order so .yo-rc.json reads the same however the answers arrived.
  const answers: Answers = {
    name: given.name,
    packageName: given.packageName,
    tenant: given.tenant,
    authScheme: given.authScheme,
    testBaseUrl: normaliseBaseUrl(given.testBaseUrl),
    productionBaseUrl: normaliseBaseUrl(given.productionBaseUrl),
    envPrefix: given.envPrefix,
    githubActions: given.githubActions,
    pagination: given.pagination,
    parse: given.parse,
  };
  return { ok: true, answers };
}

/** Picks only answer fields out of a stored config, so nothing else (never a key) is kept. */
export function pickAnswers(stored: Record<string, unknown>): Partial<Record<AnswerName, unknown>> {
  const out: Partial<Record<AnswerName, unknown>> = {};
  for (const name of ANSWER_NAMES) if (stored[name] !== undefined) out[name] = stored[name];
  return out;
}
