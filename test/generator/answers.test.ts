import { describe, expect, it } from 'vitest';
import {
  ANSWER_NAMES,
  checkAnswer,
  completeAnswers,
  defaultAnswer,
  defaultPackageName,
  pickAnswers,
} from '../../generators/app/answers.js';
import { answersFromFlags, missingAnswersMessage } from '../../generators/app/flags.js';
import { readVersions, versionsFrom } from '../../generators/app/render.js';
import { packageRoot } from '../../lib/package-root.js';

describe('answer checks', () => {
  it.each([
    ['tenant', 'rowery-nowak', true],
    ['tenant', 'rowery_nowak', true],
    ['tenant', 'RoweryNowak', true],
    ['tenant', 'rowery/nowak', false],
    ['tenant', '..', false],
    ['tenant', '', false],
    ['tenant', 'rowery łódź "100%"', true],
    ['tenant', 'rowery\u2028nowak', false],
    ['testBaseUrl', 'http://127.0.0.1:4010/a\u2029b/api/v1', false],
    ['testBaseUrl', 'http://127.0.0.1:4010/api/v1', true],
    ['testBaseUrl', 'http://127.0.0.1:4010/api/v2', false],
    ['productionBaseUrl', 'https://api.example/api/v1/', true],
    ['productionBaseUrl', 'http://api.example/api/v1', false],
    ['productionBaseUrl', 'https://user:pw@api.example/api/v1', false],
    ['productionBaseUrl', 'https://api.example/api/v1?x=1', false],
    ['envPrefix', 'REPAIR_API', true],
    ['envPrefix', 'REPAIR_', false],
    ['authScheme', 'x-api-key', true],
    ['packageName', '@shop/x', true],
    ['packageName', 'UPPER', false],
    ['name', '../escape', false],
    ['githubActions', 'yes', false],
  ] as const)('%s %j -> %s', (name, value, ok) => {
    expect(checkAnswer(name, value).ok).toBe(ok);
  });

  it('completeAnswers lists every problem and every missing answer at once', () => {
    const result = completeAnswers({ tenant: 'a/b', envPrefix: 'bad' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.name)).toEqual(['tenant', 'envPrefix']);
    expect(result.missing).toEqual([
      'name',
      'packageName',
      'authScheme',
      'testBaseUrl',
      'productionBaseUrl',
      'githubActions',
      'pagination',
      'parse',
    ]);
  });

  it('defaults are themselves valid answers', () => {
    const raw: Record<string, unknown> = {};
    for (const name of ANSWER_NAMES) raw[name] = defaultAnswer(name, raw);
    expect(completeAnswers(raw).ok).toBe(true);
    expect(defaultPackageName('My Shop_API')).toBe('my-shop_api');
  });

  it('pickAnswers keeps answer fields only', () => {
    expect(pickAnswers({ tenant: 'x', apiKey: 'secret', other: 1 })).toEqual({ tenant: 'x' });
  });
});

describe('flags', () => {
  it('reads kebab-case (yeoman, repairmon new) and camelCase (yo) spellings', () => {
    expect(answersFromFlags({ 'env-prefix': 'A_B', authScheme: 'bearer', 'github-actions': 'false' })).toEqual({
      ok: true,
      given: { envPrefix: 'A_B', authScheme: 'bearer', githubActions: false },
    });
  });

  it('names each bad flag and its value', () => {
    const result = answersFromFlags({ tenant: 'a/b', 'production-base-url': 'http://x/api/v1' });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toEqual([
        expect.stringMatching(/^--tenant .*"a\/b"$/),
        expect.stringMatching(/^--production-base-url must use https/),
      ]);
  });

  it('the missing-answers message lists one flag per line', () => {
    expect(missingAnswersMessage(['tenant', 'githubActions']).split('\n')).toEqual([
      expect.stringContaining('--yes'),
      expect.stringMatching(/^ {2}--tenant SLUG +Tenant slug/),
      expect.stringMatching(/^ {2}--github-actions \| --no-github-actions +Add a GitHub Actions workflow/),
    ]);
  });
});

describe('versions', () => {
  it('come from our package.json and fail loudly when one is missing', () => {
    const versions = readVersions(packageRoot());
    expect(Object.keys(versions.dependencies)).toEqual(['undici', 'p-retry']);
    expect(() => versionsFrom({ dependencies: { undici: '^7' }, engines: { node: '>=20' } })).toThrow(/does not list p-retry/);
  });
});
