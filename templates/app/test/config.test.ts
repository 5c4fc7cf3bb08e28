import { describe, expect, it } from 'vitest';
import { DEFAULTS, ENV_VARS, PLACEHOLDER_PRODUCTION_BASE_URL, type ReadText, readConfig } from '../src/config.js';

const TEST_KEY = 'rs_test_0123456789abcdef';
const PROD_KEY = 'rs_live_fedcba9876543210';
const PROD_URL = 'https://api.shop.example/api/v1';
const noFiles: ReadText = (path) => {
  throw Object.assign(new Error(`no ${path}`), { code: 'ENOENT' });
};

function problems(env: Record<string, string>, read: ReadText = noFiles): readonly string[] {
  const result = readConfig(env, read);
  return result.ok ? [] : result.problems;
}

describe('readConfig', () => {
  it('selects the test environment by default, with the generated base URL and tenant', () => {
    const result = readConfig({ [ENV_VARS.test.key]: TEST_KEY });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.environment).toBe('test');
    expect(result.config.baseUrl).toBe(DEFAULTS.test.baseUrl);
    expect(result.config.tenant).toBe(DEFAULTS.tenant);
    expect(result.config.keyVariable).toBe(ENV_VARS.test.key);
  });

  it('never shows the key when the config is printed', () => {
    const result = readConfig({ [ENV_VARS.test.key]: TEST_KEY });
    if (!result.ok) throw new Error(result.problems.join('; '));
    expect(JSON.stringify(result.config)).not.toContain(TEST_KEY);
    expect(`${result.config.apiKey}`).not.toContain(TEST_KEY);
  });

  it('names the variable to set when the key is missing', () => {
    expect(problems({})).toEqual([expect.stringContaining(`${ENV_VARS.test.key} is not set`)]);
  });

  it('switches to production and reads the production variables', () => {
    const result = readConfig({ [ENV_VARS.environment]: 'production', [ENV_VARS.production.key]: PROD_KEY, [ENV_VARS.test.key]: TEST_KEY, [ENV_VARS.production.baseUrl]: PROD_URL });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.config.baseUrl).toBe(PROD_URL);
  });

  it('in production without the variable: the generated URL, or a refusal naming the variable when there is none', () => {
    const found = problems({ [ENV_VARS.environment]: 'production', [ENV_VARS.production.key]: PROD_KEY });
    if (DEFAULTS.production.baseUrl === undefined) expect(found).toEqual([expect.stringContaining(`${ENV_VARS.production.baseUrl} is not set`)]);
    else expect(found).toEqual([]);
  });

  it('refuses the placeholder production URL, never calls it', () => {
    const found = problems({ [ENV_VARS.environment]: 'production', [ENV_VARS.production.key]: PROD_KEY, [ENV_VARS.production.baseUrl]: PLACEHOLDER_PRODUCTION_BASE_URL });
    expect(found).toEqual([expect.stringContaining(`${ENV_VARS.production.baseUrl} is not set`)]);
  });

  it('an empty variable is an error naming it, not a fall-back to the default', () => {
    for (const name of [ENV_VARS.test.baseUrl, ENV_VARS.tenant, ENV_VARS.environment, ENV_VARS.caFile]) {
      expect(problems({ [ENV_VARS.test.key]: TEST_KEY, [name]: '  ' }), name).toEqual([expect.stringContaining(`${name} is set but empty`)]);
    }
  });

  it('reads a CA file for https and refuses one that holds no certificate, without echoing it', () => {
    const env = { [ENV_VARS.environment]: 'production', [ENV_VARS.production.key]: PROD_KEY, [ENV_VARS.production.baseUrl]: PROD_URL, [ENV_VARS.caFile]: 'ca.pem' };
    const secret = '-----BEGIN PRIVATE KEY-----\nMIIsecret\n-----END PRIVATE KEY-----\n';
    const found = problems(env, () => secret);
    expect(found).toEqual([expect.stringContaining(`${ENV_VARS.caFile}: ca.pem holds no PEM certificate`)]);
    expect(found.join('\n')).not.toContain('MIIsecret');
    expect(problems(env)).toEqual([expect.stringContaining(`${ENV_VARS.caFile} names ca.pem, which cannot be read (ENOENT)`)]);
  });

  it('refuses an http production base URL', () => {
    const env = { [ENV_VARS.environment]: 'production', [ENV_VARS.production.key]: PROD_KEY, [ENV_VARS.production.baseUrl]: 'http://api.example/api/v1' };
    expect(problems(env)).toEqual([expect.stringContaining(`${ENV_VARS.production.baseUrl} must use https`)]);
  });

  it('refuses a production key equal to the test key', () => {
    const env = { [ENV_VARS.environment]: 'production', [ENV_VARS.production.key]: TEST_KEY, [ENV_VARS.test.key]: TEST_KEY, [ENV_VARS.production.baseUrl]: PROD_URL };
    expect(problems(env)).toEqual([expect.stringContaining(`${ENV_VARS.production.key} must differ from ${ENV_VARS.test.key}`)]);
  });

  it('takes any tenant slug a real API may use (the format is not shown), snake_case included', () => {
    for (const tenant of ['rowery_nowak', 'RoweryNowak', 'sklep.pl']) expect(problems({ [ENV_VARS.tenant]: tenant, [ENV_VARS.test.key]: TEST_KEY })).toEqual([]);
  });

  it('reports every problem at once: bad selector, bad URL, bad tenant', () => {
    const found = problems({ [ENV_VARS.environment]: 'staging', [ENV_VARS.test.baseUrl]: 'not a url', [ENV_VARS.tenant]: 'bad/slug', [ENV_VARS.test.key]: TEST_KEY });
    expect(found).toHaveLength(3);
    expect(found.join('\n')).toContain(ENV_VARS.environment);
    expect(found.join('\n')).toContain(ENV_VARS.test.baseUrl);
    expect(found.join('\n')).toContain(ENV_VARS.tenant);
  });
});
