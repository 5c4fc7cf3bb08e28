/**
 * The server's side of the contract, for the sandbox only: route matching, reading a presented
 * key, building envelopes, the status each error code is sent with, and what each reading of
 * an open point means on the wire (refusals, rate-limit fields, bodies). Generated projects do not
 * get this folder; a client has no use for it.
 */
export * from './errors.js';
export * from './presented-key.js';
export * from './readings.js';
export * from './refusals.js';
export * from './routes.js';
