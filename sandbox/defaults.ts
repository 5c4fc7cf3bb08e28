/**
 * Where `repairmon sandbox` listens unless told otherwise. A fixed port gives a new project a
 * test base URL that works without editing; programmatic starts use port 0 instead.
 */
import { BASE_PATH } from '../api/contract/index.js';

export const SANDBOX_DEFAULT_HOST = '127.0.0.1';
export const SANDBOX_DEFAULT_PORT = 4010;
export const SANDBOX_DEFAULT_BASE_URL = `http://${SANDBOX_DEFAULT_HOST}:${SANDBOX_DEFAULT_PORT}${BASE_PATH}`;
