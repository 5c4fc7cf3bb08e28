/** Property tests of the envelope parser: total (never throws), round-trips, names each problem. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type EnvelopeExpectations,
  type EnvelopeProblem,
  SERVER_TEXT_LIMITS,
  checkEnvelope,
  parseEnvelope,
  printable,
  serverText,
} from '../../../api/contract/index.js';

const json = fc.jsonValue();
const successStatus = fc.integer({ min: 200, max: 299 });
const errorStatus = fc.integer({ min: 300, max: 599 });
const nonBoolean = json.filter((v) => typeof v !== 'boolean');
const nonObject = json.filter((v) => typeof v !== 'object' || v === null || Array.isArray(v));
const withoutKey = (key: string) => fc.dictionary(fc.string(), json).filter((d) => !Object.prototype.hasOwnProperty.call(d, key));

type Case = { readonly value: fc.Arbitrary<unknown>; readonly expect?: fc.Arbitrary<EnvelopeExpectations> };

/** One generator per problem; `satisfies` makes a new problem in the contract fail to compile here. */
const PROBLEM_CASES = {
  empty_body: { value: fc.stringMatching(/^[ \t\r\n]*$/) },
  not_json: { value: fc.string().filter((s) => s.trim() !== '' && !isJson(s)) },
  not_object: { value: nonObject.map((v) => JSON.stringify(v)) },
  ok_missing: { value: withoutKey('ok').map((v) => JSON.stringify(v)) },
  ok_not_boolean: { value: fc.tuple(withoutKey('ok'), nonBoolean).map(([d, ok]) => JSON.stringify({ ...d, ok })) },
  data_missing: { value: withoutKey('data').map((d) => JSON.stringify({ ...d, ok: true })) },
  error_missing: { value: fc.oneof(nonObject, fc.constant(undefined)).map((error) => JSON.stringify({ ok: false, error })) },
  error_code_missing: {
    value: fc
      .tuple(
        fc.oneof(
          json.filter((c) => typeof c !== 'string'),
          fc.constant(''),
        ),
        fc.string(),
      )
      .map(([code, message]) => JSON.stringify({ ok: false, error: { code, message } })),
  },
  error_message_missing: {
    value: fc
      .tuple(
        fc.string({ minLength: 1 }),
        json.filter((m) => typeof m !== 'string'),
      )
      .map(([code, message]) => JSON.stringify({ ok: false, error: { code, message } })),
  },
  status_ok_mismatch: {
    value: fc.constant(JSON.stringify({ ok: true, data: [] })),
    expect: errorStatus.map((status) => ({ status })),
  },
  data_not_array: {
    value: nonObject.filter((v) => !Array.isArray(v)).map((data) => JSON.stringify({ ok: true, data })),
    expect: fc.constant({ list: true }),
  },
} satisfies Record<EnvelopeProblem, Case>;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('parseEnvelope / checkEnvelope properties', () => {
  it('never throw, whatever the input', () => {
    const expectations = fc.record({ status: fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }), list: fc.boolean() });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), expectations, (text, e) => void parseEnvelope(text, e)));
    fc.assert(fc.property(fc.anything(), expectations, (value, e) => void checkEnvelope(value, e)));
  });

  it('success envelopes round-trip', () => {
    fc.assert(
      fc.property(json, successStatus, (data, status) => {
        const list = Array.isArray(data);
        // JSON itself normalises -0 to 0, so compare with what JSON can carry.
        const carried: unknown = JSON.parse(JSON.stringify(data));
        expect(parseEnvelope(JSON.stringify({ ok: true, data }), { status, list })).toEqual({
          valid: true,
          envelope: { ok: true, data: carried },
        });
      }),
    );
  });

  it('error envelopes round-trip, code and message printable and bounded', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ unit: 'binary' }), errorStatus, (code, message, status) => {
        const text = JSON.stringify({ ok: false, error: { code, message } });
        const kept = { code: serverText(code, SERVER_TEXT_LIMITS.code), message: serverText(message, SERVER_TEXT_LIMITS.message) };
        expect(parseEnvelope(text, { status, list: true })).toEqual({ valid: true, envelope: { ok: false, error: kept } });
      }),
    );
  });

  it('a printable code and message within their bounds round-trip unchanged', () => {
    const printableText = (max: number, minLength = 0) => fc.string({ minLength, maxLength: max }).filter((t) => printable(t) === t);
    fc.assert(
      fc.property(
        printableText(SERVER_TEXT_LIMITS.code, 1),
        printableText(SERVER_TEXT_LIMITS.message),
        errorStatus,
        (code, message, status) => {
          const text = JSON.stringify({ ok: false, error: { code, message } });
          expect(parseEnvelope(text, { status })).toEqual({ valid: true, envelope: { ok: false, error: { code, message } } });
        },
      ),
    );
  });

  it('a 2xx saying ok:false is a status mismatch', () => {
    fc.assert(
      fc.property(successStatus, (status) => {
        expect(parseEnvelope('{"ok":false,"error":{"code":"x","message":"y"}}', { status })).toMatchObject({
          problem: 'status_ok_mismatch',
        });
      }),
    );
  });

  for (const [problem, c] of Object.entries(PROBLEM_CASES) as [EnvelopeProblem, Case][]) {
    it(`detects ${problem}`, () => {
      fc.assert(
        fc.property(c.value, c.expect ?? fc.constant({}), (text, e) => {
          const parsed = parseEnvelope(String(text), e);
          expect(parsed.valid).toBe(false);
          if (!parsed.valid) {
            expect(parsed.problem).toBe(problem);
            expect(parsed.detail.length).toBeGreaterThan(0);
          }
        }),
      );
    });
  }
});
