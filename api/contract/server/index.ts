/**
 * The server's side of the contract, for the sandbox and the OpenAPI document. Generated
 * projects do not get this folder; a client has no use for it.
 */
export * from './errors.js';
export * from './presented-key.js';
export * from './readings.js';
export * from './refusals.js';
export * from './routes.js';
