/**
 * The server's side of the contract, for the sandbox only: route matching, reading a presented
 * key, building envelopes, the status each error code is sent with. Generated projects do not
 * get this folder; a client has no use for it.
 */
export * from './envelope.js';
export * from './errors.js';
export * from './presented-key.js';
export * from './routes.js';
