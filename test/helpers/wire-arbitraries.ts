/**
 * What can come off the wire, for the properties that feed it to both sides (the client's
 * `error.kind` and the monitor's outcome must both be `answerKind`): any status, bodies and
 * headers that sometimes quote the key, served by a MockAgent at `ORIGIN` for `PATH`.
 */
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { ERROR_CODES } from '../../api/contract/index.js';

export const ORIGIN = 'http://api.test';
export const PATH = '/tenants/rowery-nowak/clients';
export const SECRET = `rs_test_PROPERTY${'k'.repeat(12)}9Qz7`;

const text = fc.oneof(
  fc.string(),
  fc.constant(SECRET),
  fc.string().map((s) => `${s}${SECRET}${s}`),
);
const codeWithout = fc.oneof(fc.constantFrom(...Object.values(ERROR_CODES)), fc.string());
const envelopeWith = (code: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.record({ ok: fc.constant(true), data: fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()) }, { requiredKeys: [] }),
    fc.record(
      { ok: fc.constant(false), error: fc.oneof(fc.record({ code, message: text }, { requiredKeys: [] }), fc.jsonValue()) },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.string(), fc.jsonValue()),
  );

/** Bodies that may quote the key anywhere but in `error.code`. */
export const body = fc.oneof(
  text,
  fc.json(),
  envelopeWith(codeWithout).map((e) => JSON.stringify(e)),
);
/** Bodies that may quote the key in `error.code` too. */
export const bodyAnyCode = fc.oneof(
  body,
  envelopeWith(fc.oneof(codeWithout, fc.constant(SECRET))).map((e) => JSON.stringify(e)),
);
export const headerValueWithout = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
  fc.integer({ min: -10, max: 10_000_000_000 }).map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
);
export const headerValue = fc.oneof(headerValueWithout, fc.constant(SECRET), fc.constant(`${ORIGIN}/elsewhere?k=${SECRET}`));
export const status = fc.oneof(
  fc.integer({ min: 200, max: 599 }),
  fc.constantFrom(200, 301, 302, 307, 401, 403, 404, 408, 429, 500, 502, 503),
);

/** A MockAgent that answers one GET of `PATH` with `s`, `b` and `h`, and refuses the network. */
export function agentReplying(s: number, b: string, h: Record<string, string>): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get(ORIGIN)
    .intercept({ path: `/api/v1${PATH}`, method: 'GET' })
    .reply(s, b, { headers: h });
  return agent;
}
