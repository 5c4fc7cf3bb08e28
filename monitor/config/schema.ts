/**
 * The monitor's YAML config, as a strict zod schema: every object rejects unknown keys, leaf
 * values are checked where they stand (cron, durations, slugs, secret references) so one pass
 * lists every problem. Cross-field rules live in `rules.ts`.
 */
import { z } from 'zod';
import { aliasSchema, hasKeyPrefix, shownValue } from '../../lib/index.js';
import {
  AUTH_SCHEMES,
  ENDPOINT_IDS,
  ERROR_CODE_PATTERN,
  KEY_KINDS,
  TENANT_RESOURCES,
  validateTenantSlug,
} from '../../api/contract/index.js';
import { INDEX_ACCESS, INDEX_ACCESS_READINGS, PLATFORM_PATHS, platformSubPath } from '../../api/contract/readings.js';
import { RATE_LIMIT_POLICY } from '../../api/client/index.js';
import { cronProblem } from './cron.js';
import { formatDuration, parseDuration } from './duration.js';

/** A probe reads at most this much of a body: enough for any health answer, far below a client's cap. */
export const DEFAULT_PROBE_BODY_LIMIT = 1024 * 1024;
/** Availability objective of reads, in percent, where `availability` names none. */
export const DEFAULT_AVAILABILITY_PERCENT = 99.5;
/** Resources a key's `expect` may name: what its reads are; `/` and `/docs` are read by every key alike. */
export const EXPECTABLE_ENDPOINTS = [...TENANT_RESOURCES, 'platform'] as const;
export type ExpectableEndpoint = (typeof EXPECTABLE_ENDPOINTS)[number];
export const CANARY_NAMES = ['cross_tenant', 'invalid_key', 'public_docs', 'other_header', 'platform_refused', 'index_access'] as const;
export type CanaryName = (typeof CANARY_NAMES)[number];

/** `${ENV_VAR}`: the only form a secret may take inside the file. */
export const SECRET_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

const DURATION_FORMS = 'a duration such as 500ms, 10s, 5m or 2h';

// YAML reads `timeout: 3` as a number and `recheckAfter: no` as false: name the form, not the type.
const duration = z
  .string({
    error: (issue) =>
      typeof issue.input === 'number' || typeof issue.input === 'boolean'
        ? `must be ${DURATION_FORMS}${typeof issue.input === 'number' ? ' (a number needs its unit)' : ''}, got ${String(issue.input)}`
        : `must be ${DURATION_FORMS}`,
  })
  .refine((s) => parseDuration(s) !== undefined, {
    error: (issue) => (/^\s*0+(\.0+)?(ms|s|m|h)\s*$/.test(String(issue.input)) ? 'must be longer than 0' : `must be ${DURATION_FORMS}`),
  });

const cronExpression = z.string().superRefine((expr, ctx) => {
  const problem = cronProblem(expr);
  if (problem) ctx.addIssue({ code: 'custom', message: `invalid cron expression "${shownValue(expr)}": ${problem}` });
});

const tenantSlug = z.string().superRefine((slug, ctx) => {
  // A slug goes into URLs, labels and logs: a key pasted here must stop at the config.
  if (hasKeyPrefix(slug))
    return void ctx.addIssue({ code: 'custom', message: 'holds an API key prefix: write the tenant slug, such as rowery-nowak' });
  const check = validateTenantSlug(slug);
  if (!check.ok) ctx.addIssue({ code: 'custom', message: `tenant slug "${shownValue(slug)}" ${check.reason}` });
});

const platformSub = z.string().superRefine((value, ctx) => {
  const check = platformSubPath(value);
  if (!check.ok) ctx.addIssue({ code: 'custom', message: `platform path "${shownValue(value)}" ${check.reason}` });
});

// The value is never echoed: a literal here may be a real key someone pasted in. The advice
// names this field and its file twin (`token` / `tokenFile`), so following it leads to a valid config.
const secretReference = (field: string, fileField: string) =>
  z.string().refine((s) => SECRET_REFERENCE.test(s.trim()), {
    message: `inline secrets are refused; write \`${field}: \${ENV_VAR}\` and export the secret in that variable, or use \`${fileField}: /path/to/file\``,
  });

/** A strict object of optional fields, one per name. */
const optionalFields = <K extends string, T extends z.ZodType>(names: readonly K[], field: T) =>
  z.object(Object.fromEntries(names.map((n) => [n, field.optional()])) as Record<K, z.ZodOptional<T>>).strict();

/**
 * What one read of a key should get: `read` (data, the default), `refused` (any refusal) or the
 * error code of the refusal, e.g. `insufficient_scope` for a key whose scope lacks the resource.
 */
const expectation = z.string().superRefine((value, ctx) => {
  if (value === 'read' || value === 'refused' || ERROR_CODE_PATTERN.test(value)) return;
  ctx.addIssue({
    code: 'custom',
    message: `must be \`read\`, \`refused\` or an error code such as insufficient_scope, got "${shownValue(value)}"`,
  });
});

/** An availability objective in percent: 99.5 allows 0.5 % of reads to fail on the service's side. */
const percent = z.number().refine((n) => n > 50 && n < 100, { message: 'must be a percentage above 50 and below 100, such as 99.9' });

export const keySchema = z
  .object({
    alias: aliasSchema,
    kind: z.enum(KEY_KINDS),
    tenant: tenantSlug.optional(),
    tenants: z.array(tenantSlug).optional(),
    auth: z.enum(AUTH_SCHEMES).default('bearer'),
    secret: secretReference('secret', 'secretFile').optional(),
    secretFile: z.string().min(1).optional(),
    expect: optionalFields(EXPECTABLE_ENDPOINTS, expectation).optional(),
  })
  .strict();

// One object for both forms (a union would bury an unknown key under "invalid input");
// `rules.ts` checks that exactly one form is used.
const maintenanceWindow = z
  .object({
    cron: cronExpression.optional(),
    duration: duration.optional(),
    start: z.iso.datetime({ offset: true }).optional(),
    end: z.iso.datetime({ offset: true }).optional(),
    reason: z.string().optional(),
  })
  .strict();

// A DNS name for SNI and certificate checks; an IP address goes in baseUrl itself.
const serverName = z
  .string()
  .regex(
    /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i,
    'must be a DNS name such as api.internal.example',
  );

/** Trusting a private CA for one target: its PEM file is read once at (re)load. */
const tlsOptions = z
  .object({
    caFile: z.string().min(1, 'must be the path of a PEM file with the CA certificate(s)'),
    serverName: serverName.optional(),
  })
  .strict();

export const targetSchema = z
  .object({
    name: aliasSchema,
    baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL ending in /api/v1, such as https://api.example.com/api/v1' }),
    schedule: cronExpression.default('*/30 * * * * *'),
    timeout: duration.default('10s'),
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(DEFAULT_PROBE_BODY_LIMIT),
    slo: optionalFields(ENDPOINT_IDS, duration).optional(),
    /** Availability objectives of reads per endpoint, in percent (multi-window burn-rate alerts). */
    availability: optionalFields(['default', ...ENDPOINT_IDS], percent).optional(),
    /** Consecutive service-side failures of a read that page (RepairmonEndpointDown). */
    failureThreshold: z.number().int().min(1).max(20).default(2),
    /** A read that failed on the service's side is probed again this much later (`off`: at the next tick; default in load.ts). */
    recheckAfter: z.union([z.literal('off'), duration], { error: 'must be `off` or a duration from 1s to 1h, such as 10s' }).optional(),
    maintenance: z.array(maintenanceWindow).default([]),
    canaries: z.union([z.boolean(), optionalFields(CANARY_NAMES, z.boolean())]).default(true),
    tls: tlsOptions.optional(),
    /** `false`: probes go direct, whatever HTTPS_PROXY / HTTP_PROXY say (NO_PROXY for one target). */
    proxy: z.boolean().default(true),
    /** Sub-paths under /platform/ to probe (READING: the spec names none; see readings.ts). */
    platformPaths: z.array(platformSub).default([...PLATFORM_PATHS.default]),
    /** Whether GET / needs a key on this API (READING: not shown by the spec; see readings.ts). */
    indexAccess: z.enum(INDEX_ACCESS_READINGS).default(INDEX_ACCESS.default),
    keys: z.array(keySchema).min(1),
  })
  .strict();

/**
 * The monitor's own HTTP surface. Tokens are secrets, referenced like keys (`${ENV}` or a
 * file), never inline. `token` guards the views that run probes or show probe results;
 * `metricsToken` optionally guards /metrics and the health endpoints (Prometheus'
 * `authorization` sends it).
 */
export const httpSchema = z
  .object({
    token: secretReference('token', 'tokenFile').optional(),
    tokenFile: z.string().min(1).optional(),
    metricsToken: secretReference('metricsToken', 'metricsTokenFile').optional(),
    metricsTokenFile: z.string().min(1).optional(),
    onDemandInterval: duration
      .refine((d) => (parseDuration(d) ?? 0) >= 1_000, { message: "must be at least 1s: each on-demand probe spends the key's quota" })
      .default('10s'),
  })
  .strict();

/** Uptime over long windows comes from Prometheus, which keeps the history the monitor does not. */
export const statusPageSchema = z
  .object({
    prometheusUrl: z
      .url({ protocol: /^https?$/, error: 'must be the http(s) address of a Prometheus server, such as http://prometheus:9090' })
      // The address is shown on the status page and in its error line; a secret has no place there or in monitor.yaml.
      .refine((url) => !/^https?:\/\/[^/?#]*@/i.test(url), {
        message:
          'must not carry a user name or password (user:password@host): leave them out of monitor.yaml and reach Prometheus through a proxy that adds them',
      })
      .optional(),
    prometheusTimeout: duration.default('2s'),
  })
  .strict();

export const configSchema = z
  .object({
    concurrency: z.number().int().min(1).max(512).default(16),
    /** The longest a 429's hint holds a key's probes: a hint of years would blind the monitor. */
    maxRateLimitHold: duration
      .refine((d) => (parseDuration(d) ?? 0) >= 1_000, { message: 'must be at least 1s' })
      .default(formatDuration(RATE_LIMIT_POLICY.maxHoldMs)),
    /** How many recent results per probe the status page and ratios keep. */
    historyPerProbe: z.number().int().min(2).max(1000).default(60),
    http: httpSchema.optional(),
    statusPage: statusPageSchema.optional(),
    /** What /metrics carries beyond the default series budget. */
    metrics: z
      .object({
        /** Outcome counters per probe (key, tenant) instead of per target and endpoint: 15 more series per probe. */
        perKeyOutcomes: z.boolean().default(false),
      })
      .strict()
      .default({ perKeyOutcomes: false }),
    targets: z.array(targetSchema).min(1),
  })
  .strict();

export type RawConfig = z.infer<typeof configSchema>;
export type RawTarget = z.infer<typeof targetSchema>;
export type RawKey = z.infer<typeof keySchema>;
export type RawHttp = z.infer<typeof httpSchema>;
export type RawStatusPage = z.infer<typeof statusPageSchema>;
