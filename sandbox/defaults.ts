/**
 * Where `repairmon sandbox` listens unless told otherwise. A fixed port gives a new project a
 * test base URL that works without editing; programmatic starts use port 0 instead.
 */
import { BASE_PATH } from '../api/contract/index.js';

export const SANDBOX_DEFAULT_HOST = '127.0.0.1';
export const SANDBOX_DEFAULT_PORT = 4010;
export const SANDBOX_DEFAULT_BASE_URL = `http://${SANDBOX_DEFAULT_HOST}:${SANDBOX_DEFAULT_PORT}${BASE_PATH}`;

/**
 * The /platform/ sub-paths the sandbox serves by default. The spec names none (its concrete
 * sub-paths are "not shown"), so these are the sandbox's own, not the contract's: tools learn
 * them from configuration or discovery (`/docs` lists them), never from here.
 */
export const SANDBOX_PLATFORM_PATHS = { tenants: 'tenants', keys: 'keys' } as const;
