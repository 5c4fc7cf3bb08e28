import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTH_SCHEMES, authHeader, otherScheme } from '../../../api/contract/index.js';
import { readPresentedKey } from '../../../api/contract/server/index.js';
import { keyValue } from './arbitraries.js';

const scheme = fc.constantFrom(...AUTH_SCHEMES);
const headerValue = fc.oneof(fc.string({ unit: 'binary' }), fc.array(fc.string()), fc.constant(undefined));

function bag(...headers: { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(headers.map((h) => [h.name, h.value]));
}

describe('readPresentedKey properties', () => {
  it('reads back the key authHeader presents, in either scheme', () => {
    fc.assert(
      fc.property(keyValue, scheme, (key, s) => {
        expect(readPresentedKey(bag(authHeader(s, key)))).toEqual({ kind: 'key', key, scheme: s });
      }),
    );
  });

  it('the same key in both headers is that key; different keys are malformed', () => {
    fc.assert(
      fc.property(keyValue, keyValue, scheme, (a, b, s) => {
        const both = readPresentedKey(bag(authHeader(s, a), authHeader(otherScheme(s), b)));
        if (a === b) expect(both).toMatchObject({ kind: 'key', key: a });
        else expect(both).toMatchObject({ kind: 'malformed' });
      }),
    );
  });

  it('an Authorization header that is not "Bearer <key>" is malformed', () => {
    const notBearer = fc.tuple(fc.constantFrom('Basic', 'Token', 'Bearer:', 'Bearerx', 'ApiKey'), keyValue).map(([p, k]) => `${p} ${k}`);
    fc.assert(
      fc.property(notBearer, (value) => {
        expect(readPresentedKey({ authorization: value })).toMatchObject({ kind: 'malformed' });
      }),
    );
  });

  it('no key headers (or empty ones) is none', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.stringMatching(/^x-[a-z]{1,8}$/).filter((n) => n !== 'x-api-key'),
          fc.string(),
        ),
        (headers) => {
          expect(readPresentedKey({ ...headers, authorization: '', 'x-api-key': '  ' })).toEqual({ kind: 'none' });
        },
      ),
    );
  });

  it('never throws on arbitrary header bags', () => {
    fc.assert(
      fc.property(headerValue, headerValue, (authorization, apiKey) => void readPresentedKey({ authorization, 'x-api-key': apiKey })),
    );
  });
});
