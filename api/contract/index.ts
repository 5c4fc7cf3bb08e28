/** The Repair-Service Integration API v1 contract: the single source of truth. */
export * from './api.js';
export * from './auth.js';
export * from './classify.js';
export * from './envelope.js';
export * from './errors.js';
