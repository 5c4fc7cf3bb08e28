/**
 * `http:` and `statusPage:` in the config -> the settings the HTTP surface runs on. The tokens
 * resolve like keys (`${ENV}` or a file) and must be long enough that guessing is hopeless.
 */
import { parseDuration } from './duration.js';
import type { RawHttp, RawStatusPage } from './schema.js';
import { type SecretReference, type SecretSources, resolveReference } from './secrets.js';
import {
  type ConfigIssue,
  DEFAULT_HTTP_SETTINGS,
  DEFAULT_STATUS_PAGE_SETTINGS,
  type HttpSettings,
  type StatusPageSettings,
} from './types.js';
import type { ApiKey } from '../../api/client/index.js';

const MIN_TOKEN_LENGTH = 16;

const TOKENS = [
  { env: 'token', file: 'tokenFile', label: 'HTTP token' },
  { env: 'metricsToken', file: 'metricsTokenFile', label: 'HTTP metrics token' },
] as const;

/** At most one form per token; checked with the other cross-field rules. */
export function httpIssues(raw: Partial<Record<keyof RawHttp, unknown>> | undefined): ConfigIssue[] {
  if (raw === undefined) return [];
  return TOKENS.filter((t) => raw[t.env] !== undefined && raw[t.file] !== undefined).map((t) => ({
    path: `http.${t.env}`,
    message: `give at most one of \`${t.env}: \${ENV_VAR}\` or \`${t.file}: path\``,
  }));
}

/** The references a raw `http:` object holds, for resolution (also from a file that failed the schema). */
export function tokenReferences(raw: Partial<Record<'token' | 'tokenFile' | 'metricsToken' | 'metricsTokenFile', unknown>>) {
  return TOKENS.flatMap((t): Array<{ ref: SecretReference; label: string; name: 'token' | 'metricsToken' }> => {
    const env = raw[t.env];
    const file = raw[t.file];
    if (typeof env === 'string') return [{ ref: { env: { text: env, path: `http.${t.env}` } }, label: t.label, name: t.env }];
    if (typeof file === 'string' && file !== '')
      return [{ ref: { file: { text: file, path: `http.${t.file}` } }, label: t.label, name: t.env }];
    return [];
  });
}

/** Resolves one token, adding an issue when it is unreadable or too short (never echoing it). */
export function resolveToken(
  ref: SecretReference,
  label: string,
  name: string,
  sources: SecretSources,
  issues: ConfigIssue[],
): ApiKey | undefined {
  const result = resolveReference(ref, label, `http.${name}`, sources);
  if (!result.ok) {
    issues.push(result.issue);
    return undefined;
  }
  if (result.key.reveal().length < MIN_TOKEN_LENGTH) {
    const at = ref.env?.path ?? ref.file?.path ?? 'http';
    issues.push({ path: at, message: `${label} is shorter than ${MIN_TOKEN_LENGTH} characters; make one with \`openssl rand -hex 32\`` });
    return undefined;
  }
  return result.key;
}

export function resolveHttp(raw: RawHttp | undefined, tokens: Partial<Record<'token' | 'metricsToken', ApiKey>>): HttpSettings {
  if (raw === undefined) return DEFAULT_HTTP_SETTINGS;
  const onDemandIntervalMs = parseDuration(raw.onDemandInterval) ?? DEFAULT_HTTP_SETTINGS.onDemandIntervalMs;
  return { token: tokens.token, metricsToken: tokens.metricsToken, onDemandIntervalMs };
}

export function resolveStatusPage(raw: RawStatusPage | undefined): StatusPageSettings {
  if (raw === undefined) return DEFAULT_STATUS_PAGE_SETTINGS;
  return {
    prometheusUrl: raw.prometheusUrl?.replace(/\/+$/, ''),
    prometheusTimeoutMs: parseDuration(raw.prometheusTimeout) ?? DEFAULT_STATUS_PAGE_SETTINGS.prometheusTimeoutMs,
  };
}
