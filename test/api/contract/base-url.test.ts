import { describe, expect, it } from 'vitest';
import { checkBaseUrl } from '../../../api/contract/index.js';

describe('checkBaseUrl', () => {
  it.each([
    ['not a url', {}, 'not_url'],
    ['ftp://h/api/v1', {}, 'not_http'],
    ['http://h/api/v1', { requireHttps: true }, 'not_https'],
    ['https://u:p@h/api/v1', {}, 'credentials'],
    ['https://h/api/v1?key=x', {}, 'query'],
    ['https://h/api/v1#x', {}, 'query'],
    ['https://h/api/v2', {}, 'version_path'],
    ['https://h/', {}, 'version_path'],
  ] as const)('%s is refused as %s', (raw, rules, problem) => {
    const check = checkBaseUrl(raw, rules);
    expect(check).toMatchObject({ ok: false, problem });
    if (!check.ok) expect(check.reason).not.toContain('u:p');
  });

  it.each(['https://h/api/v1', 'https://h/api/v1/', 'http://127.0.0.1:4010/api/v1', 'https://h/proxy/api/v1'])('%s is accepted', (raw) => {
    expect(checkBaseUrl(raw, { requireHttps: raw.startsWith('https') })).toMatchObject({ ok: true });
  });
});
