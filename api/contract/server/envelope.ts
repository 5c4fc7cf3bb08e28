/** Building envelopes (spec §2): what a server sends. Clients only parse them (../envelope.ts). */
import type { Envelope } from '../index.js';

export function successEnvelope<T>(data: T): Envelope<T> {
  return { ok: true, data };
}

export function errorEnvelope(code: string, message: string): Envelope<never> {
  return { ok: false, error: { code, message } };
}
